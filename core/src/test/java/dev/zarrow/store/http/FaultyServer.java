package dev.zarrow.store.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;

/**
 * A tiny HTTP/1.1 server on loopback whose answers the test scripts, one {@link Reply} per request (the
 * last one repeats), to make the faults a real server would not: errors, bodies cut short or too long,
 * wrong {@code Content-Range}, silence. Every request is recorded. One connection per request.
 */
public final class FaultyServer implements AutoCloseable {
  /** What the server writes for one request: the raw head and body, and whether to stall or cut. */
  public record Reply(int status, Map<String, String> headers, byte[] body, int send, long stallMillis) {
    /** {@code body} sent whole with a matching Content-Length. */
    public static Reply of(int status, Map<String, String> headers, byte[] body) {
      return new Reply(status, headers, body, body.length, 0);
    }

    /** Announces the whole body but sends only {@code send} bytes, then closes the connection. */
    Reply cutAt(int n) {
      return new Reply(status, headers, body, n, stallMillis);
    }

    /** Says nothing at all for {@code millis}. */
    static Reply silent(long millis) {
      return new Reply(200, Map.of(), new byte[0], -1, millis);
    }

    /** Sends the head and {@code send} bytes of the body, then stays silent for {@code millis}. */
    Reply stallAfter(int n, long millis) {
      return new Reply(status, headers, body, n, millis);
    }
  }

  /** One request: method, path and headers (names in lower case). */
  public record Request(String method, String path, Map<String, String> headers) {}

  private final ServerSocket socket;
  private final Thread acceptor;
  private final BlockingQueue<Function<Request, Reply>> script = new LinkedBlockingQueue<>();
  private volatile Function<Request, Reply> last = r -> Reply.of(404, Map.of(), new byte[0]);
  private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
  private final List<Socket> open = Collections.synchronizedList(new ArrayList<>());

  public FaultyServer() throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::accept, "faulty-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/data");
  }

  /** The replies to the next requests, in order; the last one answers every later request too. */
  @SafeVarargs
  public final void script(Function<Request, Reply>... replies) {
    script.clear();
    for (Function<Request, Reply> reply : replies) {
      script.add(reply);
    }
    requests.clear();
  }

  public List<Request> requests() {
    return List.copyOf(requests);
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket s = socket.accept();
        open.add(s);
        Thread t = new Thread(() -> serve(s), "faulty-server-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket s) {
    try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
      Request request = readHead(in);
      if (request == null) {
        return;
      }
      requests.add(request);
      Function<Request, Reply> next = script.poll();
      if (next != null) {
        last = next;
      } else {
        next = last;
      }
      Reply reply = next.apply(request);
      if (reply.send() < 0) {
        Thread.sleep(reply.stallMillis());
        return;
      }
      StringBuilder head = new StringBuilder("HTTP/1.1 " + reply.status() + " X\r\n");
      if (!reply.headers().containsKey("Content-Length")) {
        head.append("Content-Length: ").append(reply.body().length).append("\r\n");
      }
      reply.headers().forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
      head.append("Connection: close\r\n\r\n");
      out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
      if (!request.method().equals("HEAD")) {
        out.write(reply.body(), 0, reply.send());
      }
      out.flush();
      if (reply.stallMillis() > 0) {
        Thread.sleep(reply.stallMillis());
      }
    } catch (IOException | InterruptedException e) {
      // the client went away
    } finally {
      open.remove(s);
    }
  }

  private static Request readHead(InputStream in) throws IOException {
    StringBuilder text = new StringBuilder();
    int c;
    while ((c = in.read()) >= 0) {
      text.append((char) c);
      if (text.length() >= 4 && text.substring(text.length() - 4).equals("\r\n\r\n")) {
        break;
      }
    }
    String[] lines = text.toString().split("\r\n");
    if (lines.length == 0 || lines[0].isEmpty()) {
      return null;
    }
    String[] first = lines[0].split(" ");
    Map<String, String> headers = new TreeMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(lines[i].substring(0, colon).trim().toLowerCase(), lines[i].substring(colon + 1).trim());
      }
    }
    return new Request(first[0], first[1], headers);
  }

  @Override
  public void close() throws IOException {
    socket.close();
    synchronized (open) {
      for (Socket s : open) {
        try {
          s.close();
        } catch (SocketException ignored) {
          // closing anyway
        }
      }
    }
  }
}
