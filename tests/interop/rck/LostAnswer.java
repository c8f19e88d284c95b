// Iceberg Java 1.11's REST client against `floe serve` when an answer is lost: the request ran
// on the server, but the client got a 503 with Retry-After instead of the answer (what a gateway
// gives when it gives up waiting). The client retries the same request with the same
// Idempotency-Key, and the server must replay the first request's answer instead of running
// it again: no 409 for the namespace or table the first attempt created, and no second copy of
// an append (floe's server-side rebase would otherwise land the retried append again). Each
// retry goes to a second server on the same catalog database: the stored answers are shared.
//
// Run by run_rck.sh (lost-answer), as a single-file program on the peers' class path:
//   java -cp "$FLOE_PEERS_JAVA_JARS/*" LostAnswer.java FLOE_URL RETRY_FLOE_URL
// The client's other properties come from CATALOG_* environment variables, named as the
// compatibility kit names them (CATALOG_WAREHOUSE -> warehouse, CATALOG_S3_PATH__STYLE__ACCESS
// -> s3.path-style-access, ...).
// Prints "lost-answer: OK ..." and exits 0, or names the first broken expectation and exits 1.

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;

public class LostAnswer {
  static final Set<String> NOT_FORWARDED =
      Set.of("host", "content-length", "connection", "transfer-encoding", "upgrade", "expect");

  // Every POST or DELETE with an Idempotency-Key is forwarded; the first answer for each key
  // is dropped and replaced by a 503, the retry goes to the second server and its answer is
  // passed on.
  static final Map<String, Integer> attemptsByKey = new ConcurrentHashMap<>();
  static final List<String> lost = java.util.Collections.synchronizedList(new ArrayList<>());
  static final List<String> replayed = java.util.Collections.synchronizedList(new ArrayList<>());
  static final List<String> mutationsWithoutKey = java.util.Collections.synchronizedList(new ArrayList<>());

  static void fail(String why) {
    System.out.println("lost-answer: FAILED: " + why);
    System.exit(1);
  }

  static void check(boolean ok, String why) {
    if (!ok) fail(why);
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) fail("usage: LostAnswer FLOE_URL RETRY_FLOE_URL (and CATALOG_* variables)");
    long started = System.nanoTime();
    String upstream = args[0].replaceAll("/+$", "");
    String retryUpstream = args[1].replaceAll("/+$", "");
    HttpClient http =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();

    HttpServer proxy = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    proxy.createContext("/", exchange -> forward(http, upstream, retryUpstream, exchange));
    proxy.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4));
    proxy.start();
    String proxyUrl = "http://127.0.0.1:" + proxy.getAddress().getPort();

    Map<String, String> props = new HashMap<>();
    System.getenv().forEach((name, value) -> {
      if (name.startsWith("CATALOG_")) {
        props.put(name.substring(8).replace("__", "-").replace("_", ".").toLowerCase(), value);
      }
    });
    props.put("uri", proxyUrl);
    RESTCatalog catalog = new RESTCatalog();
    catalog.setConf(new org.apache.hadoop.conf.Configuration());
    catalog.initialize("lost_answer", props);
    System.out.printf("lost-answer: client ready after %d ms%n", (System.nanoTime() - started) / 1_000_000);
    try {
      run(catalog);
      System.out.printf("lost-answer: done after %d ms%n", (System.nanoTime() - started) / 1_000_000);
    } catch (RuntimeException e) {
      e.printStackTrace();
      fail(e.toString());  // exits: the proxy's threads would keep the JVM alive
    } finally {
      catalog.close();
      proxy.stop(0);
    }
    System.exit(0);
  }

  static void run(RESTCatalog catalog) {
    Namespace ns = Namespace.of("lost_answer");
    TableIdentifier id = TableIdentifier.of(ns, "events");
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "data", Types.StringType.get()));

    // Without a replay, each of these retries would fail: 409 for the namespace and the table
    // the first attempt created.
    catalog.createNamespace(ns);
    Table table = catalog.createTable(id, schema, PartitionSpec.unpartitioned());

    DataFile file =
        DataFiles.builder(PartitionSpec.unpartitioned())
            .withPath(table.location() + "/data/lost-answer-00001.parquet")
            .withFileSizeInBytes(1024)
            .withRecordCount(7)
            .withFormat(FileFormat.PARQUET)
            .build();
    table.newAppend().appendFile(file).commit();

    Table loaded = catalog.loadTable(id);
    int snapshots = 0;
    for (var ignored : loaded.snapshots()) snapshots++;
    check(snapshots == 1, "the append landed " + snapshots + " times (want 1)");
    long rows =
        Long.parseLong(loaded.currentSnapshot().summary().getOrDefault("total-records", "-1"));
    check(rows == 7, "the table holds " + rows + " rows (want 7)");

    // A drop whose answer is lost: the retry replays 204 instead of answering 404.
    check(catalog.dropTable(id, false), "the retried drop did not report the table dropped");
    check(!catalog.tableExists(id), "the table still exists after the drop");
    catalog.dropNamespace(ns);

    check(mutationsWithoutKey.isEmpty(),
        "mutations without an Idempotency-Key (does /v1/config advertise idempotency-key-lifetime?): " + mutationsWithoutKey);
    check(lost.size() >= 5, "only " + lost.size() + " answers were lost: " + lost);
    check(replayed.size() == lost.size(),
        "lost " + lost.size() + " answers but " + replayed.size() + " retries were replays: lost " + lost
            + ", replayed " + replayed);
    System.out.println("lost-answer: OK: " + lost.size()
        + " lost answers, each retried with its key and replayed by the other server: " + lost);
  }

  static void forward(HttpClient http, String upstream, String retryUpstream, HttpExchange exchange) {
    try (exchange) {
      String method = exchange.getRequestMethod();
      byte[] body = exchange.getRequestBody().readAllBytes();
      String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
      boolean mutation = method.equals("POST") || method.equals("DELETE");
      // The spec gives tokens and metrics reports no Idempotency-Key.
      String path = exchange.getRequestURI().getPath();
      boolean keyless = path.endsWith("/oauth/tokens") || path.endsWith("/metrics");
      if (mutation && !keyless && key == null) mutationsWithoutKey.add(method + " " + path);
      int attempt = key == null ? 0 : attemptsByKey.merge(key, 1, Integer::sum);

      URI target = URI.create((attempt >= 2 ? retryUpstream : upstream) + exchange.getRequestURI().toString());
      HttpRequest.Builder request =
          HttpRequest.newBuilder(target)
              .timeout(Duration.ofSeconds(60))
              .method(method, body.length == 0 && !method.equals("POST")
                  ? HttpRequest.BodyPublishers.noBody()
                  : HttpRequest.BodyPublishers.ofByteArray(body));
      for (var header : exchange.getRequestHeaders().entrySet()) {
        String name = header.getKey();
        if (NOT_FORWARDED.contains(name.toLowerCase())) continue;
        for (String value : header.getValue()) request.header(name, value);
      }
      HttpResponse<byte[]> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      String what = method + " " + path + " -> " + answer.statusCode();
      if (mutation && key != null && attempt == 1 && answer.statusCode() < 500) {
        // The server ran it; the client never hears so.
        lost.add(what);
        byte[] gone = "{\"error\":{\"message\":\"gateway gave up\",\"type\":\"ServiceUnavailableException\",\"code\":503}}".getBytes();
        exchange.getResponseHeaders().add("Retry-After", "1");
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(503, gone.length);
        exchange.getResponseBody().write(gone);
        return;
      }
      if (mutation && key != null && attempt == 2
          && "true".equals(answer.headers().firstValue("Idempotent-Replayed").orElse(""))) {
        replayed.add(what);
      }
      for (var header : answer.headers().map().entrySet()) {
        String name = header.getKey();
        if (name.startsWith(":") || NOT_FORWARDED.contains(name.toLowerCase())) continue;
        for (String value : header.getValue()) exchange.getResponseHeaders().add(name, value);
      }
      byte[] out = answer.body();
      exchange.sendResponseHeaders(answer.statusCode(), out.length == 0 ? -1 : out.length);
      if (out.length > 0) exchange.getResponseBody().write(out);
    } catch (Exception e) {
      System.out.println("lost-answer: proxy error: " + e);
    }
  }
}
