package dev.zarrow.cli;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * The password hashes of {@code serve --auth-basic-file}: the JDK's PBKDF2 with HMAC-SHA256, a random
 * 16-byte salt and a 32-byte key, written in the PHC string form {@code
 * $pbkdf2-sha256$i=ITERATIONS$SALT$HASH} (salt and hash in base64 without padding), as {@code zarrow
 * hash-password} prints it. Python makes the same with {@code hashlib.pbkdf2_hmac('sha256', password,
 * salt, iterations)}.
 */
final class PasswordHash {
  static final int DEFAULT_ITERATIONS = 600_000; // OWASP's figure for PBKDF2-HMAC-SHA256 (2023)
  static final int MIN_ITERATIONS = 10_000;
  private static final int MAX_ITERATIONS = 100_000_000;
  private static final Pattern FORM = Pattern.compile("^\\$pbkdf2-sha256\\$i=(\\d{1,9})\\$([A-Za-z0-9+/]{16,})\\$([A-Za-z0-9+/]{43})$");
  private static final Base64.Encoder ENCODER = Base64.getEncoder().withoutPadding();

  private final int iterations;
  private final byte[] salt;
  private final byte[] hash;

  private PasswordHash(int iterations, byte[] salt, byte[] hash) {
    this.iterations = iterations;
    this.salt = salt;
    this.hash = hash;
  }

  /** A new hash of {@code password} with a fresh salt. */
  static String make(char[] password, int iterations) {
    if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
      throw new IllegalArgumentException("iterations " + iterations + ": must be " + MIN_ITERATIONS + " to " + MAX_ITERATIONS);
    }
    byte[] salt = new byte[16];
    new SecureRandom().nextBytes(salt);
    return "$pbkdf2-sha256$i=" + iterations + "$" + ENCODER.encodeToString(salt) + "$" + ENCODER.encodeToString(derive(password, salt, iterations));
  }

  /** The hash a line spells; an {@link IllegalArgumentException} (naming no part of it) when it is not one. */
  static PasswordHash parse(String text) {
    Matcher m = FORM.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a hash of the form $pbkdf2-sha256$i=ITERATIONS$SALT$HASH (zarrow hash-password makes one)");
    }
    int iterations = Integer.parseInt(m.group(1));
    if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
      throw new IllegalArgumentException("a hash of " + iterations + " iterations (at least " + MIN_ITERATIONS + ")");
    }
    return new PasswordHash(iterations, Base64.getDecoder().decode(m.group(2)), Base64.getDecoder().decode(m.group(3)));
  }

  /** Whether {@code password} has this hash (compared in constant time). */
  boolean matches(String password) {
    return MessageDigest.isEqual(hash, derive(password.toCharArray(), salt, iterations));
  }

  private static byte[] derive(char[] password, byte[] salt, int iterations) {
    PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, 256);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no PBKDF2WithHmacSHA256", e);
    } finally {
      spec.clearPassword();
    }
  }

  /** A hash of nothing anyone knows, checked for unknown users so that they take as long as known ones. */
  static PasswordHash decoy() {
    byte[] salt = "zarrow-no-such-user".getBytes(StandardCharsets.UTF_8);
    return new PasswordHash(DEFAULT_ITERATIONS, salt, new byte[32]);
  }
}
