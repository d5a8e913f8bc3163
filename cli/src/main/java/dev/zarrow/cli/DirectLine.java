package dev.zarrow.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The command lines run without picocli: {@code info STORE [PATH]} and {@code ls STORE [PATH]}, with
 * {@code --json} (ls), {@code --verbose} and {@code --no-verify-checksums} each at most once after the
 * command's name, every other word an argument that starts with neither {@code -} nor {@code @}.
 * picocli builds its model of a command by reflection over its annotations, in code the JVM still
 * interprets: about 100 ms of a 0.3 s {@code info}, the commands whose work does not grow with the data.
 * Such a line means one thing to picocli, and runs the same command with the same fields here;
 * anything else (help, an option with a value, a word picocli would expand or match, a wrong count of
 * arguments) is picocli's, as are the line's own usage errors. {@code MainTest} holds both ways to the
 * same output and exit code, and to the options picocli knows for these commands.
 */
final class DirectLine {
  static final Set<String> COMMANDS = Set.of("info", "ls");
  static final Set<String> GLOBAL_SWITCHES = Set.of("--verbose", "--no-verify-checksums");

  private DirectLine() {}

  /** A usage error (exit 2) of a command run here: printed as picocli's handler prints its own. */
  static final class UsageError extends RuntimeException {
    UsageError(String message) {
      super(message);
    }
  }

  /**
   * Runs {@code args} when it is such a line and returns its exit code; null when it is not, left
   * to picocli.
   */
  static Integer run(String[] args, PrintStream stdoutBytes, PrintWriter out, PrintWriter err) {
    if (args == null || args.length < 2 || !COMMANDS.contains(args[0])) {
      return null;
    }
    String name = args[0];
    Set<String> switches = new HashSet<>();
    List<String> words = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      String arg = args[i];
      if (arg.startsWith("-")) {
        boolean known = GLOBAL_SWITCHES.contains(arg) || (name.equals("ls") && arg.equals("--json"));
        if (!known || !switches.add(arg)) { // picocli refuses a switch given twice
          return null;
        }
      } else if (arg.startsWith("@")) { // an argument file to picocli
        return null;
      } else {
        words.add(arg);
      }
    }
    if (words.isEmpty() || words.size() > 2) {
      return null;
    }
    Main main = new Main();
    main.stdoutBytes = stdoutBytes;
    main.verbose = switches.contains("--verbose");
    main.noVerifyChecksums = switches.contains("--no-verify-checksums");
    String store = words.get(0);
    String path = words.size() > 1 ? words.get(1) : "";
    ZarrowCommand command;
    if (name.equals("info")) {
      InfoCommand info = new InfoCommand();
      info.store = store;
      info.path = path;
      command = info;
    } else {
      LsCommand ls = new LsCommand();
      ls.store = store;
      ls.path = path;
      ls.json = switches.contains("--json");
      command = ls;
    }
    command.main = main;
    command.direct = new ZarrowCommand.Direct(out, err);
    try {
      return command.call();
    } catch (UsageError e) {
      err.println("zarrow: " + Main.oneLine(e.getMessage()));
      Main.tryHelp("zarrow " + name, err);
      return Main.USAGE_ERROR;
    } catch (Exception e) {
      return Main.failure(e, main.verbose, err);
    }
  }
}
