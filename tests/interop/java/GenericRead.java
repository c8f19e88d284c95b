// Iceberg Java's generic reader (iceberg-data's IcebergGenerics) as a judge of floe's tables.
//
// Run: java -cp "$FLOE_PEERS_JAVA_JARS/*" GenericRead.java REQUESTS.jsonl
// Each line of REQUESTS is {"label", "metadata", "columns": [names], "snapshot_id"?, "ref"?}:
// the table is opened from its metadata document alone (no catalog), read at the snapshot or
// ref given (else the current one) with Java's own delete handling (position and equality
// deletes, deletion vectors), and one line {"label", "rows": [[...]]} or {"label", "error"} is
// printed per request. Values are printed in Iceberg's single-value JSON form (decimals and
// temporal values as strings, binary as hex), which tests/interop/interop_common.py's
// from_floe_json turns back into Python values. One JVM serves every request: a JVM start
// costs more than a read.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.CloseableIterable;

public class GenericRead {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS");
  private static final DateTimeFormatter TIME_MICROS = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");

  public static void main(String[] args) throws Exception {
    HadoopFileIO io = new HadoopFileIO(new Configuration());
    try (BufferedReader requests = Files.newBufferedReader(Path.of(args[0]))) {
      String line;
      while ((line = requests.readLine()) != null) {
        if (line.isBlank()) continue;
        JsonNode request = JSON.readTree(line);
        ObjectNode answer = JSON.createObjectNode();
        answer.put("label", request.get("label").asText());
        try {
          answer.set("rows", read(io, request));
        } catch (Exception error) {
          answer.put("error", error.getClass().getSimpleName() + ": " + error.getMessage());
        }
        System.out.println(JSON.writeValueAsString(answer));
      }
    }
  }

  private static ArrayNode read(HadoopFileIO io, JsonNode request) throws Exception {
    String metadata = request.get("metadata").asText();
    Table table = new BaseTable(new StaticTableOperations(metadata, io), metadata);
    List<String> columns = new ArrayList<>();
    request.get("columns").forEach(c -> columns.add(c.asText()));
    IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table).select(columns);
    if (request.hasNonNull("snapshot_id")) {
      scan = scan.useSnapshot(request.get("snapshot_id").asLong());
    } else if (request.hasNonNull("ref")) {
      Snapshot snapshot = table.snapshot(request.get("ref").asText());
      if (snapshot == null) throw new IllegalArgumentException("no ref " + request.get("ref").asText());
      scan = scan.useSnapshot(snapshot.snapshotId());
    }
    ArrayNode rows = JSON.createArrayNode();
    try (CloseableIterable<Record> records = scan.build()) {
      for (Record record : records) {
        ArrayNode row = rows.addArray();
        for (String column : columns) {
          addValue(row, record.getField(column));
        }
      }
    }
    return rows;
  }

  private static void addValue(ArrayNode row, Object value) {
    if (value == null) {
      row.addNull();
    } else if (value instanceof Boolean b) {
      row.add(b);
    } else if (value instanceof Integer i) {
      row.add(i);
    } else if (value instanceof Long l) {
      row.add(l);
    } else if (value instanceof Float f) {
      row.add(f);
    } else if (value instanceof Double d) {
      row.add(d);
    } else if (value instanceof BigDecimal d) {
      row.add(d.toPlainString());
    } else if (value instanceof LocalDate d) {
      row.add(d.toString());
    } else if (value instanceof LocalTime t) {
      row.add(t.format(TIME_MICROS));
    } else if (value instanceof LocalDateTime t) {
      row.add(t.format(MICROS));
    } else if (value instanceof OffsetDateTime t) {
      row.add(t.withOffsetSameInstant(ZoneOffset.UTC).format(MICROS) + "+00:00");
    } else if (value instanceof CharSequence s) {
      row.add(s.toString());
    } else if (value instanceof UUID u) {
      row.add(u.toString());
    } else if (value instanceof byte[] bytes) {
      row.add(HexFormat.of().formatHex(bytes));
    } else if (value instanceof ByteBuffer buffer) {
      ByteBuffer copy = buffer.duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      row.add(HexFormat.of().formatHex(bytes));
    } else {
      throw new IllegalStateException("no JSON form for a " + value.getClass().getName());
    }
  }
}
