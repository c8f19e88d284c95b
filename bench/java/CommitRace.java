// Writers appending to one table through REST catalog servers, with the same client for every
// server: Iceberg Java 1.11.0's RESTCatalog, one catalog (HTTP client) per writer thread, each
// commit `table.newAppend().appendFile(one small data file).commit()` with Iceberg's default
// commit retries (commit.retry.num-retries 4, 100 ms - 60 s). The data files are entries only
// (no Parquet is written); the client writes the manifests and manifest lists into the
// warehouse, as in a real append.
//
// Each server is reached through a delay proxy of this program's own (loopback HTTP): it holds
// each request and each answer for half the added round trip, and counts the commit attempts
// (POST .../namespaces/NS/tables/T) by their answer's status. Every row runs on a new table, the
// servers in turn (alternating which goes first), so both see the same machine load.
//
//   java -cp CLASSES:PEER_JARS/* CommitRace --server NAME=URL [--server NAME=URL]...
//        [--writers 1,2,4,8] [--latency-ms 0,20] [--seconds 4] [--warmup-seconds 2]
//        [--property KEY=VALUE]...     (table properties of every table made, e.g.
//                                       commit.manifest-merge.enabled=false)
//
// Prints one line per (latency, writers, server): commits, commits/s, commit attempts, the
// share of attempts the server accepted, p50/p95/p99 of commit() in the client (its retries and
// backoff included), give-ups (CommitFailedException after the retries), unknown outcomes
// (CommitStateUnknownException) and other errors.
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;

public class CommitRace {
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "data", Types.StringType.get()));
  static final Namespace NS = Namespace.of("bench");

  /** A loopback HTTP proxy in front of one server: adds latency, counts commit attempts. */
  static final class DelayProxy {
    static final Set<String> HOP =
        Set.of("host", "content-length", "connection", "transfer-encoding", "upgrade", "expect", "keep-alive");
    static final Pattern COMMIT = Pattern.compile(".*/namespaces/[^/]+/tables/[^/]+$");
    final String upstream;
    final HttpServer server;
    final HttpClient http;
    volatile long halfDelayMs;
    final Map<Integer, AtomicLong> commitsByStatus = new ConcurrentHashMap<>();
    // The first refused commit attempt's answer (its start), to say why the server refused it.
    final java.util.concurrent.atomic.AtomicReference<String> firstRefusal = new java.util.concurrent.atomic.AtomicReference<>("");

    DelayProxy(String upstream) throws Exception {
      this.upstream = upstream.replaceAll("/+$", "");
      http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10)).executor(Executors.newCachedThreadPool()).build();
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
      server.createContext("/", this::forward);
      server.setExecutor(Executors.newCachedThreadPool());
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void reset(long roundTripMs) {
      halfDelayMs = roundTripMs / 2;
      commitsByStatus.clear();
      firstRefusal.set("");
    }

    long attempts() {
      return commitsByStatus.values().stream().mapToLong(AtomicLong::get).sum();
    }

    long accepted() {
      return commitsByStatus.entrySet().stream()
          .filter(e -> e.getKey() >= 200 && e.getKey() < 300).mapToLong(e -> e.getValue().get()).sum();
    }

    static void pause(long ms) {
      if (ms <= 0) return;
      try {
        Thread.sleep(ms);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    void forward(HttpExchange exchange) {
      try (exchange) {
        String method = exchange.getRequestMethod();
        byte[] body = exchange.getRequestBody().readAllBytes();
        pause(halfDelayMs);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(upstream + exchange.getRequestURI()))
            .timeout(Duration.ofSeconds(120))
            .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
        exchange.getRequestHeaders().forEach((name, values) -> {
          if (!HOP.contains(name.toLowerCase())) values.forEach(v -> request.header(name, v));
        });
        HttpResponse<byte[]> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (method.equals("POST") && COMMIT.matcher(exchange.getRequestURI().getPath()).matches()) {
          commitsByStatus.computeIfAbsent(answer.statusCode(), k -> new AtomicLong()).incrementAndGet();
          if (answer.statusCode() >= 300 && firstRefusal.get().isEmpty()) {
            String text = new String(answer.body(), java.nio.charset.StandardCharsets.UTF_8);
            if ("gzip".equals(answer.headers().firstValue("Content-Encoding").orElse(""))) {
              text = new String(new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(answer.body()))
                  .readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
            firstRefusal.compareAndSet("", text.substring(0, Math.min(300, text.length())));
          }
        }
        pause(halfDelayMs);
        answer.headers().map().forEach((name, values) -> {
          if (!name.startsWith(":") && !HOP.contains(name.toLowerCase())) {
            values.forEach(v -> exchange.getResponseHeaders().add(name, v));
          }
        });
        byte[] out = answer.body();
        boolean empty = out.length == 0 || method.equals("HEAD");
        exchange.sendResponseHeaders(answer.statusCode(), empty ? -1 : out.length);
        if (!empty) exchange.getResponseBody().write(out);
      } catch (Exception e) {
        System.err.println("proxy to " + upstream + ": " + e);
      }
    }
  }

  record Row(long commits, double seconds, long giveUps, long unknown, long errors, List<Long> latenciesNs,
             String firstError, String files) {}

  // What the table holds after a row, read by a fresh client: every commit appended one file of
  // its own, so the live data files must be exactly the landed commits' (plus any of an unknown
  // outcome), each listed once.
  static String filesCheck(String url, TableIdentifier id, long commits, long unknown) {
    try (RESTCatalog reader = client(url, "check")) {
      Table table = reader.loadTable(id);
      java.util.Set<String> paths = new java.util.HashSet<>();
      long listed = 0;
      try (org.apache.iceberg.io.CloseableIterable<org.apache.iceberg.FileScanTask> tasks = table.newScan().planFiles()) {
        for (org.apache.iceberg.FileScanTask task : tasks) {
          listed++;
          paths.add(task.file().path().toString());
        }
      }
      long twice = listed - paths.size();
      boolean ok = twice == 0 && paths.size() >= commits && paths.size() <= commits + unknown;
      return "files=" + paths.size() + (twice > 0 ? " LISTED-TWICE=" + twice : "") + (ok ? "" : " MISMATCH");
    } catch (Exception e) {
      return "files=? (" + e.getMessage() + ")";
    }
  }

  static RESTCatalog client(String url, String name) {
    Map<String, String> props = new HashMap<>();
    props.put("uri", url);
    props.put("rest-metrics-reporting-enabled", "false");
    RESTCatalog catalog = new RESTCatalog();
    catalog.setConf(new org.apache.hadoop.conf.Configuration());
    catalog.initialize(name, props);
    return catalog;
  }

  static final Map<String, String> TABLE_PROPERTIES = new HashMap<>();

  static Row run(String url, String table, int writers, double seconds) throws Exception {
    TableIdentifier id = TableIdentifier.of(NS, table);
    try (RESTCatalog setup = client(url, "setup")) {
      if (!setup.namespaceExists(NS)) setup.createNamespace(NS);
      setup.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), null, TABLE_PROPERTIES);
    }
    List<RESTCatalog> catalogs = new ArrayList<>();
    List<Table> tables = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      RESTCatalog catalog = client(url, "writer" + w);
      catalogs.add(catalog);
      tables.add(catalog.loadTable(id));
    }
    AtomicLong commits = new AtomicLong(), giveUps = new AtomicLong(), unknown = new AtomicLong(),
        errors = new AtomicLong();
    List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
    List<String> firstError = Collections.synchronizedList(new ArrayList<>());
    long start = System.nanoTime();
    long deadline = start + (long) (seconds * 1e9);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      final int writer = w;
      Thread t = new Thread(() -> {
        Table tbl = tables.get(writer);
        long n = 0;
        while (System.nanoTime() < deadline) {
          DataFile file = DataFiles.builder(PartitionSpec.unpartitioned())
              .withPath(tbl.location() + "/data/w" + writer + "-" + (n++) + ".parquet")
              .withFileSizeInBytes(1024).withRecordCount(1).withFormat(FileFormat.PARQUET).build();
          long t0 = System.nanoTime();
          try {
            tbl.newAppend().appendFile(file).commit();
            latencies.add(System.nanoTime() - t0);
            commits.incrementAndGet();
          } catch (CommitFailedException e) {
            giveUps.incrementAndGet();
            if (firstError.isEmpty()) firstError.add("gave up: " + e.getMessage());
          } catch (CommitStateUnknownException e) {
            unknown.incrementAndGet();
            if (firstError.isEmpty()) firstError.add("unknown: " + e.getMessage());
            tbl.refresh();
          } catch (RuntimeException e) {
            errors.incrementAndGet();
            if (firstError.isEmpty()) firstError.add(e.toString());
            try {
              tbl.refresh();
            } catch (RuntimeException ignored) {
              // the next commit reports it
            }
          }
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) t.join();
    double elapsed = (System.nanoTime() - start) / 1e9;
    for (RESTCatalog c : catalogs) c.close();
    return new Row(commits.get(), elapsed, giveUps.get(), unknown.get(), errors.get(), new ArrayList<>(latencies),
        firstError.isEmpty() ? "" : firstError.get(0), filesCheck(url, id, commits.get(), unknown.get()));
  }

  static String statuses(DelayProxy proxy) {
    StringBuilder out = new StringBuilder();
    new java.util.TreeMap<>(proxy.commitsByStatus).forEach((status, n) ->
        out.append(out.length() == 0 ? "" : ",").append(status).append(':').append(n.get()));
    return out.toString();
  }

  static double percentileMs(List<Long> sorted, double p) {
    if (sorted.isEmpty()) return Double.NaN;
    int i = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i))) / 1e6;
  }

  static List<Integer> ints(String csv) {
    List<Integer> out = new ArrayList<>();
    for (String s : csv.split(",")) out.add(Integer.parseInt(s.trim()));
    return out;
  }

  public static void main(String[] args) throws Exception {
    // The JDK's HTTP server leaves Nagle's algorithm on unless told: an answer written in two
    // pieces would then wait for the client's delayed ACK (~40 ms) at every request.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    Map<String, String> servers = new LinkedHashMap<>();
    List<Integer> writers = ints("1,2,4,8");
    List<Integer> latencies = ints("0,20");
    double seconds = 4, warmup = 2;
    for (int i = 0; i < args.length; i += 2) {
      String value = args[i + 1];
      switch (args[i]) {
        case "--server" -> servers.put(value.substring(0, value.indexOf('=')), value.substring(value.indexOf('=') + 1));
        case "--writers" -> writers = ints(value);
        case "--latency-ms" -> latencies = ints(value);
        case "--seconds" -> seconds = Double.parseDouble(value);
        case "--warmup-seconds" -> warmup = Double.parseDouble(value);
        case "--property" -> TABLE_PROPERTIES.put(value.substring(0, value.indexOf('=')), value.substring(value.indexOf('=') + 1));
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Map<String, DelayProxy> proxies = new LinkedHashMap<>();
    for (var e : servers.entrySet()) proxies.put(e.getKey(), new DelayProxy(e.getValue()));

    // Both JVMs' (client and reference server) code warmed on a table of its own, not reported.
    for (var e : proxies.entrySet()) {
      e.getValue().reset(0);
      run(e.getValue().url(), "warmup", 2, warmup);
    }
    System.out.printf("%-10s %6s %7s %7s %9s %8s %9s %9s %9s %9s %7s %7s %6s%n", "server", "rtt_ms", "writers",
        "commits", "commits/s", "attempts", "accepted", "p50_ms", "p95_ms", "p99_ms", "gaveup", "unknown", "errors   attempts by status");
    int row = 0;
    for (int latency : latencies) {
      for (int w : writers) {
        List<String> order = new ArrayList<>(proxies.keySet());
        if (row++ % 2 == 1) Collections.reverse(order);
        for (String name : order) {
          DelayProxy proxy = proxies.get(name);
          proxy.reset(latency);
          Row r = run(proxy.url(), "t_" + latency + "ms_" + w + "w", w, seconds);
          List<Long> sorted = new ArrayList<>(r.latenciesNs());
          Collections.sort(sorted);
          long attempts = proxy.attempts();
          System.out.printf("%-10s %6d %7d %7d %9.1f %8d %8.1f%% %9.1f %9.1f %9.1f %7d %7d %6d   %s%n", name, latency, w,
              r.commits(), r.commits() / r.seconds(), attempts,
              attempts == 0 ? Double.NaN : 100.0 * proxy.accepted() / attempts,
              percentileMs(sorted, 0.50), percentileMs(sorted, 0.95), percentileMs(sorted, 0.99),
              r.giveUps(), r.unknown(), r.errors(),
              statuses(proxy) + " " + r.files() + (r.firstError().isEmpty() ? "" : "   first: " + r.firstError().replaceAll("\\s+", " "))
                  + (proxy.firstRefusal.get().isEmpty() ? "" : "   first refusal: " + proxy.firstRefusal.get().replaceAll("\\s+", " ")));
          System.out.flush();
        }
      }
    }
    System.exit(0);
  }
}
