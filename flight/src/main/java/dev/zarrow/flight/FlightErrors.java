package dev.zarrow.flight;

import dev.zarrow.error.NoSuchNodeException;
import dev.zarrow.error.StoreException;
import dev.zarrow.error.UnsupportedExtensionException;
import dev.zarrow.error.ZarrException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.CompletionException;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.grpc.StatusUtils;

/**
 * What a failed call answers, as a gRPC status (Arrow Java's {@code FlightStatusCode} has no {@code
 * DATA_LOSS}; Flight passes gRPC statuses through unchanged):
 *
 * <ul>
 *   <li>a missing node ({@link NoSuchNodeException}): {@code NOT_FOUND};
 *   <li>a bad request (a descriptor or ticket that is not ours, a range past the node's rows): {@code
 *       INVALID_ARGUMENT};
 *   <li>stored data that cannot be read (bad metadata, a corrupt chunk, a checksum mismatch): {@code
 *       DATA_LOSS}; a stream a client puts that zarrow cannot store: {@code INVALID_ARGUMENT};
 *   <li>a codec or data type zarrow does not support: {@code UNIMPLEMENTED};
 *   <li>a store that fails (I/O): {@code UNAVAILABLE};
 *   <li>anything else (a bug): {@code INTERNAL}.
 * </ul>
 *
 * The description is the exception's message, which names the node, chunk and reason.
 */
final class FlightErrors {
  private FlightErrors() {}

  /** Whose data a failure is about: the store's (reads) or the client's (puts). */
  enum Side { READ, PUT }

  static StatusRuntimeException status(Status status, String description) {
    return status.withDescription(description).asRuntimeException();
  }

  static StatusRuntimeException invalid(String description) {
    return status(Status.INVALID_ARGUMENT, description);
  }

  /** The status {@code failure} answers on {@code side}. */
  static RuntimeException toStatus(Throwable failure, Side side) {
    Throwable t = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    if (t instanceof StatusRuntimeException s) {
      return s;
    }
    if (t instanceof FlightRuntimeException f) {
      return (RuntimeException) StatusUtils.toGrpcException(f);
    }
    Status status;
    if (t instanceof NoSuchNodeException) {
      status = Status.NOT_FOUND;
    } else if (t instanceof UnsupportedExtensionException) {
      status = Status.UNIMPLEMENTED;
    } else if (t instanceof StoreException) {
      status = Status.UNAVAILABLE;
    } else if (t instanceof ZarrException) {
      status = side == Side.READ ? Status.DATA_LOSS : Status.INVALID_ARGUMENT;
    } else if (t instanceof IllegalArgumentException) {
      status = Status.INVALID_ARGUMENT;
    } else {
      return Status.INTERNAL.withDescription("internal error: " + t).withCause(t).asRuntimeException();
    }
    return status.withDescription(t.getMessage()).asRuntimeException();
  }
}
