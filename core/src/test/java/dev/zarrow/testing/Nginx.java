package dev.zarrow.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real nginx (the Debian package) serving a directory on loopback, for HTTP store tests: started with
 * a generated configuration in a directory of its own, stopped by {@link #close}. Its access log
 * ({@link #requests}) shows what each read cost: method, path, {@code Range} header, status, bytes.
 */
public final class Nginx implements AutoCloseable {
  static final Path BINARY = Path.of("/usr/sbin/nginx");

  /** One line of the access log. */
  public record Request(String method, String path, String range, int status, long bytes) {}

  private final Process process;
  private final Path log;
  private final int port;
  private int seen;

  private Nginx(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /**
   * nginx serving {@code root} at {@link #url()}; {@code work} holds its configuration and logs. Fails on
   * CI, or skips elsewhere, when nginx is not installed.
   */
  public static Nginx serve(Path root, Path work) throws Exception {
    return serve(root, work, "");
  }

  /** {@link #serve(Path, Path)} with more directives in the {@code server} block ({@code location}s, header checks). */
  public static Nginx serve(Path root, Path work, String serverDirectives) throws Exception {
    Peer.NGINX.require();
    IOException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      int port = freePort();
      Path conf = work.resolve("nginx.conf");
      Path log = work.resolve("access.log");
      Files.createDirectories(work.resolve("tmp"));
      Files.writeString(conf, String.join("\n",
          "root".equals(System.getProperty("user.name")) ? "user root;" : "",
          "worker_processes 1;",
          "pid " + work.resolve("nginx.pid") + ";",
          "error_log " + work.resolve("error.log") + " warn;",
          "events { worker_connections 256; }",
          "http {",
          "  log_format zarrow '$request_method $uri \"$http_range\" $status $body_bytes_sent';",
          "  access_log " + log + " zarrow;",
          "  client_body_temp_path " + work.resolve("tmp/body") + ";",
          "  proxy_temp_path " + work.resolve("tmp/proxy") + ";",
          "  fastcgi_temp_path " + work.resolve("tmp/fastcgi") + ";",
          "  uwsgi_temp_path " + work.resolve("tmp/uwsgi") + ";",
          "  scgi_temp_path " + work.resolve("tmp/scgi") + ";",
          "  default_type application/octet-stream;",
          "  server {",
          "    listen 127.0.0.1:" + port + ";",
          "    root " + root.toAbsolutePath() + ";",
          serverDirectives,
          "  }",
          "}", ""));
      Process process = new ProcessBuilder(BINARY.toString(), "-p", work.toString(), "-c", conf.toString(), "-g", "daemon off;")
          .redirectErrorStream(true).redirectOutput(work.resolve("stdout.log").toFile()).start();
      Nginx nginx = new Nginx(process, log, port);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (System.nanoTime() < deadline && process.isAlive()) {
        try (Socket s = new Socket()) {
          s.connect(new InetSocketAddress("127.0.0.1", port), 200);
          return nginx;
        } catch (IOException e) {
          last = e;
          Thread.sleep(50);
        }
      }
      nginx.close();
      last = new IOException("nginx did not start: " + Files.readString(work.resolve("stdout.log"))
          + (Files.exists(work.resolve("error.log")) ? Files.readString(work.resolve("error.log")) : ""), last);
    }
    throw last;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** {@code http://127.0.0.1:PORT/} */
  public URI url() {
    return URI.create("http://127.0.0.1:" + port + "/");
  }

  /** The requests logged since the last call (waiting for the log to settle: nginx logs after it answers). */
  public List<Request> requests() throws Exception {
    List<String> lines = List.of();
    int stable = 0;
    for (int i = 0; i < 50 && stable < 3; i++) {
      Thread.sleep(20);
      List<String> now = Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
      stable = now.size() == lines.size() ? stable + 1 : 0;
      lines = now;
    }
    List<Request> out = lines.subList(seen, lines.size()).stream().map(Nginx::parse).toList();
    seen = lines.size();
    return out;
  }

  private static Request parse(String line) {
    int q1 = line.indexOf('"');
    int q2 = line.indexOf('"', q1 + 1);
    String[] head = line.substring(0, q1).trim().split(" ");
    String[] tail = line.substring(q2 + 1).trim().split(" ");
    String range = line.substring(q1 + 1, q2);
    return new Request(head[0], head[1], range.equals("-") ? null : range, Integer.parseInt(tail[0]), Long.parseLong(tail[1]));
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
