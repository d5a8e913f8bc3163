package dev.zarrow.cli;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/**
 * {@code serve --max-calls N}: a call started while N are running is refused at once, {@code
 * RESOURCE_EXHAUSTED}, rather than queued (a client retries; a flood is not buffered).
 */
final class CallLimit implements FlightServerMiddleware.Factory<FlightServerMiddleware> {
  static final FlightServerMiddleware.Key<FlightServerMiddleware> KEY = FlightServerMiddleware.Key.of("zarrow-call-limit");

  private final int max;
  private final AtomicInteger running = new AtomicInteger();

  CallLimit(int max) {
    this.max = max;
  }

  @Override
  public FlightServerMiddleware onCallStarted(CallInfo info, CallHeaders headers, RequestContext context) {
    if (running.incrementAndGet() > max) {
      running.decrementAndGet();
      throw CallStatus.RESOURCE_EXHAUSTED
          .withDescription("the server runs at most " + max + " calls at once (--max-calls); try again later")
          .toRuntimeException();
    }
    AtomicBoolean ended = new AtomicBoolean();
    return new FlightServerMiddleware() {
      @Override
      public void onBeforeSendingHeaders(CallHeaders outgoing) {}

      @Override
      public void onCallCompleted(CallStatus status) {
        end();
      }

      @Override
      public void onCallErrored(Throwable err) {
        end();
      }

      private void end() {
        if (ended.compareAndSet(false, true)) {
          running.decrementAndGet();
        }
      }
    };
  }

  /** The calls running now. */
  int running() {
    return running.get();
  }
}
