package dev.zarrow.cli;

import java.io.BufferedReader;
import java.io.Console;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code zarrow hash-password USER}: one line of {@code serve --auth-basic-file}, {@code
 * USER:$pbkdf2-sha256$i=N$SALT$HASH} ({@link PasswordHash}), for a password typed at the terminal
 * (without echo, twice) or read as the first line of stdin.
 */
@Command(
    name = "hash-password",
    description = {
      "Print a line for serve --auth-basic-file: USER:$pbkdf2-sha256$i=ITERATIONS$SALT$HASH (PBKDF2-HMAC-SHA256, a random"
          + " 16-byte salt). The password is asked for at the terminal, or read as the first line of stdin.",
      "Example: zarrow hash-password alice >> users && chmod 600 users"
    })
final class HashPasswordCommand extends ZarrowCommand {
  @Parameters(index = "0", paramLabel = "USER", description = "The user name (no ':').")
  String user;

  @Option(names = "--iterations", paramLabel = "N", description = "PBKDF2 iterations (default: ${DEFAULT-VALUE}).")
  int iterations = PasswordHash.DEFAULT_ITERATIONS;

  @Override
  public Integer call() throws Exception {
    if (user.isEmpty() || user.indexOf(':') >= 0 || user.chars().anyMatch(c -> c <= ' ')) {
      throw usage("USER '" + user + "': a user name is not empty and has no ':' or spaces");
    }
    if (iterations < PasswordHash.MIN_ITERATIONS) {
      throw usage("--iterations " + iterations + ": at least " + PasswordHash.MIN_ITERATIONS);
    }
    char[] password = password();
    try {
      if (password.length == 0) {
        throw usage("an empty password");
      }
      out().println(user + ":" + PasswordHash.make(password, iterations));
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    } finally {
      Arrays.fill(password, '\0');
    }
    return Main.OK;
  }

  private char[] password() throws Exception {
    Console console = System.console();
    if (console != null) {
      char[] first = console.readPassword("password for %s: ", user);
      char[] again = console.readPassword("again: ");
      if (first == null || again == null || !Arrays.equals(first, again)) {
        throw usage("the passwords differ");
      }
      Arrays.fill(again, '\0');
      return first;
    }
    String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    return line == null ? new char[0] : line.toCharArray();
  }
}
