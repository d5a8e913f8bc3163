package dev.zarrow.store.http;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a response body into fresh direct memory (the caller's own: decoders wrap it without a copy),
 * refusing more than {@code limit} bytes as soon as they arrive, and noting when bytes last came, so
 * that the waiter can give up on a body that stalls.
 */
final class BodyCollector implements HttpResponse.BodySubscriber<ByteBuffer> {
  /** More bytes came than were asked for: never data. */
  static final class Overlong extends IOException {
    private static final long serialVersionUID = 1L;

    Overlong(long limit) {
      super("the body is longer than the " + limit + " bytes asked for");
    }
  }

  private final long limit;
  private final CompletableFuture<ByteBuffer> result = new CompletableFuture<>();
  private ByteBuffer buffer;
  private volatile Flow.Subscription subscription;
  private volatile long lastActivity = System.nanoTime();

  /** Takes at most {@code limit} bytes, expecting {@code expected} (or growing as they come when -1). */
  BodyCollector(long expected, long limit) {
    this.limit = limit;
    this.buffer = ByteBuffer.allocateDirect((int) Math.min(expected >= 0 ? expected : 64 << 10, limit));
  }

  @Override
  public CompletionStage<ByteBuffer> getBody() {
    return result;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    s.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    lastActivity = System.nanoTime();
    if (result.isDone()) {
      return;
    }
    for (ByteBuffer item : items) {
      long total = (long) buffer.position() + item.remaining();
      if (total > limit) {
        result.completeExceptionally(new Overlong(limit));
        subscription.cancel();
        return;
      }
      if (item.remaining() > buffer.remaining()) {
        ByteBuffer bigger = ByteBuffer.allocateDirect((int) Math.min(limit, Math.max(total, 2L * buffer.capacity())));
        bigger.put(buffer.flip());
        buffer = bigger;
      }
      buffer.put(item);
    }
  }

  @Override
  public void onError(Throwable t) {
    result.completeExceptionally(t);
  }

  @Override
  public void onComplete() {
    result.complete(buffer.flip());
  }

  /** Nanoseconds (System.nanoTime) when bytes last arrived, or when the body began. */
  long lastActivity() {
    return lastActivity;
  }

  /** Stops the body: the connection is dropped. */
  void cancel() {
    Flow.Subscription s = subscription;
    if (s != null) {
      s.cancel();
    }
  }
}
