package dev.zarrow.cli;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.GeneratedBearerTokenAuthenticator;

/**
 * {@code serve}'s authentication, on Flight's own authenticators: a call carries {@code Authorization:
 * Bearer TOKEN} with a token of {@code --auth-token-file}, or (with {@code --auth-basic-file}) {@code
 * Authorization: Basic} credentials of a user of that file, checked by Flight's {@link
 * BasicCallHeaderAuthenticator}, after which Flight's {@link GeneratedBearerTokenAuthenticator} hands
 * the client a bearer token for its next calls (what {@code FlightClient.authenticateBasicToken}
 * expects). A generated token is refused once its user has left the file. Anything else is {@code
 * UNAUTHENTICATED}, before the call reaches the producer. Messages never hold credentials.
 */
final class FileAuthenticator extends GeneratedBearerTokenAuthenticator {
  private final CredentialFile<Set<String>> tokens;
  private final CredentialFile<Map<String, PasswordHash>> users;

  private FileAuthenticator(CallHeaderAuthenticator initial, CredentialFile<Set<String>> tokens,
      CredentialFile<Map<String, PasswordHash>> users) {
    super(initial);
    this.tokens = tokens;
    this.users = users;
  }

  /** The authenticator of the files given (either may be null, not both). */
  static FileAuthenticator of(CredentialFile<Set<String>> tokens, CredentialFile<Map<String, PasswordHash>> users) {
    CallHeaderAuthenticator initial = users == null
        ? headers -> {
          throw CallStatus.UNAUTHENTICATED.withDescription("this server takes bearer tokens (Authorization: Bearer)").toRuntimeException();
        }
        : new BasicCallHeaderAuthenticator(new PasswordCheck(users));
    return new FileAuthenticator(initial, tokens, users);
  }

  @Override
  protected AuthResult validateBearer(String token) {
    if (tokens != null) {
      Set<String> known = tokens.current();
      if (known != null && known.contains(digest(token))) {
        return () -> "token";
      }
    }
    if (users != null) {
      AuthResult generated = super.validateBearer(token); // UNAUTHENTICATED when it never was one
      Map<String, PasswordHash> now = users.current();
      if (now != null && now.containsKey(generated.getPeerIdentity())) {
        return generated;
      }
    }
    throw CallStatus.UNAUTHENTICATED.withDescription("invalid bearer token").toRuntimeException();
  }

  /** The tokens of a token file, one per line, kept as SHA-256 digests. */
  static Set<String> parseTokens(List<CredentialFile.Line> lines) {
    Set<String> digests = new HashSet<>();
    for (CredentialFile.Line line : lines) {
      if (line.text().length() < 16 || line.text().chars().anyMatch(c -> c <= ' ' || c > '~')) {
        throw new IllegalArgumentException("line " + line.number() + ": a token is at least 16 printable ASCII characters without spaces");
      }
      digests.add(digest(line.text()));
    }
    return digests;
  }

  /** The users of a basic file: {@code USER:HASH} lines ({@link PasswordHash}). */
  static Map<String, PasswordHash> parseUsers(List<CredentialFile.Line> lines) {
    Map<String, PasswordHash> users = new HashMap<>();
    for (CredentialFile.Line line : lines) {
      int colon = line.text().indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException("line " + line.number() + ": not USER:HASH");
      }
      try {
        if (users.put(line.text().substring(0, colon), PasswordHash.parse(line.text().substring(colon + 1))) != null) {
          throw new IllegalArgumentException("line " + line.number() + ": a second line for its user");
        }
      } catch (IllegalArgumentException e) {
        throw e.getMessage().startsWith("line ") ? e : new IllegalArgumentException("line " + line.number() + ": " + e.getMessage());
      }
    }
    return users;
  }

  /** Hex SHA-256 of a token: tokens are compared as digests, so a comparison's time says nothing about them. */
  private static String digest(String token) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder();
      for (byte b : d) {
        hex.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Checks basic credentials against the file; at most one check per core at a time (each is slow on purpose). */
  private static final class PasswordCheck implements BasicCallHeaderAuthenticator.CredentialValidator {
    private final CredentialFile<Map<String, PasswordHash>> users;
    private final Semaphore checks = new Semaphore(Math.max(1, Runtime.getRuntime().availableProcessors()));

    PasswordCheck(CredentialFile<Map<String, PasswordHash>> users) {
      this.users = users;
    }

    @Override
    public AuthResult validate(String user, String password) throws Exception {
      Map<String, PasswordHash> now = users.current();
      if (now == null) {
        throw CallStatus.UNAUTHENTICATED.withDescription("the server's user file cannot be used").toRuntimeException();
      }
      PasswordHash hash = now.get(user);
      checks.acquire();
      try {
        boolean ok = (hash != null ? hash : DECOY).matches(password);
        if (!ok || hash == null) {
          throw CallStatus.UNAUTHENTICATED.withDescription("wrong user or password").toRuntimeException();
        }
      } finally {
        checks.release();
      }
      return () -> user;
    }

    private static final PasswordHash DECOY = PasswordHash.decoy();
  }
}
