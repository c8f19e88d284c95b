// Iceberg's reference REST server (RESTCatalogServer, iceberg-open-api 1.11.0 test fixtures) on
// 127.0.0.1 only. RESTCatalogServer.main listens on every interface; this starts the same pieces
// (its backend catalog from CATALOG_* variables, RESTServerCatalogAdapter, RESTCatalogServlet,
// gzip compression) on a loopback connector. It sits in Iceberg's package because the
// adapter and the catalog set-up are package-private; it must be compiled onto the class path
// (not run as a single-file program), so that it shares that package at run time.
//
//   java -cp CLASSES:PEER_JARS/*:JETTY_JARS/* org.apache.iceberg.rest.LoopbackReferenceServer PORT
//
// Prints "reference server: listening on http://127.0.0.1:PORT" once it accepts connections.
package org.apache.iceberg.rest;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jetty.compression.gzip.GzipCompression;
import org.eclipse.jetty.compression.server.CompressionHandler;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

public class LoopbackReferenceServer {
  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    Map<String, String> config = new HashMap<>();
    RESTCatalogServer reference = new RESTCatalogServer(config);
    // The reference server's own catalog set-up (CATALOG_* variables, JdbcCatalog defaults).
    Method setUp = RESTCatalogServer.class.getDeclaredMethod("initializeBackendCatalog");
    setUp.setAccessible(true);
    RESTCatalogServer.CatalogContext context = (RESTCatalogServer.CatalogContext) setUp.invoke(reference);

    ServletContextHandler servlets = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    servlets.addServlet(new ServletHolder(new RESTCatalogServlet(new RESTServerCatalogAdapter(context))), "/*");
    CompressionHandler compression = new CompressionHandler();
    compression.putCompression(new GzipCompression());
    servlets.insertHandler(compression);

    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    server.addConnector(connector);
    server.setHandler(servlets);
    server.start();
    System.out.println("reference server: listening on http://127.0.0.1:" + connector.getLocalPort());
    System.out.flush();
    server.join();
  }
}
