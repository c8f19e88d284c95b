// Iceberg Java's REST client in refs loading mode (snapshot-loading-mode=refs) against a REST
// catalog: prints, as one JSON line, how many snapshots the loaded table's current state holds
// before history is asked for, its current snapshot id, and how many snapshots it holds after
// (the client then loads all of them from the server itself).
// Usage: java -cp <jars>/* RefsLoading.java <uri> <token> <namespace.table>
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

public class RefsLoading {
  public static void main(String[] args) throws Exception {
    Map<String, String> properties = new HashMap<>();
    properties.put("uri", args[0]);
    properties.put("token", args[1]);
    properties.put("snapshot-loading-mode", "refs");
    try (RESTCatalog catalog = new RESTCatalog()) {
      catalog.initialize("floe", properties);
      Table table = catalog.loadTable(TableIdentifier.parse(args[2]));
      // TableMetadata.snapshots() would load the history itself: look at the field instead.
      TableMetadata metadata = ((BaseTable) table).operations().current();
      java.lang.reflect.Field field = TableMetadata.class.getDeclaredField("snapshots");
      field.setAccessible(true);
      int before = ((java.util.List<?>) field.get(metadata)).size();
      long current = table.currentSnapshot().snapshotId();
      int after = 0;
      for (Snapshot ignored : table.snapshots()) after++;
      System.out.println("{\"before\":" + before + ",\"current\":" + current + ",\"after\":" + after + "}");
    }
  }
}
