// Iceberg Java's serialization of deletion vectors, as a judge of floe's bytes.
//
// Run: java -cp "$FLOE_PEERS_JAVA_JARS/*" DeletionVectorBytes.java POSITIONS
// Each line of POSITIONS is one vector's row positions (decimal, separated by spaces, any order);
// for each, one line is printed: the hex of the deletion-vector-v1 blob Iceberg writes for those
// positions (iceberg-core's Deletes.toPositionIndex, then PositionDeleteIndex.serialize: the
// positions added one by one, run-optimized, framed with length, magic and CRC), or
// "error <message>" for positions Java refuses.

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.iceberg.deletes.Deletes;
import org.apache.iceberg.io.CloseableIterable;

public class DeletionVectorBytes {
  public static void main(String[] args) throws Exception {
    for (String line : Files.readAllLines(Path.of(args[0]))) {
      List<Long> positions = new ArrayList<>();
      for (String token : line.trim().split("\\s+")) {
        if (!token.isEmpty()) positions.add(Long.parseLong(token));
      }
      try {
        ByteBuffer blob = Deletes.toPositionIndex(CloseableIterable.withNoopClose(positions)).serialize();
        byte[] bytes = new byte[blob.remaining()];
        blob.get(bytes);
        System.out.println(HexFormat.of().formatHex(bytes));
      } catch (RuntimeException e) {
        System.out.println("error " + e.getMessage());
      }
    }
  }
}
