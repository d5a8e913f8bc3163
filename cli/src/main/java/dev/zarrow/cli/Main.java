package dev.zarrow.cli;

import dev.zarrow.error.ZarrException;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code zarrow} command line (README.md, "Command line").
 *
 * <p>JSON for machines goes to stdout, progress and messages to stderr. Every subcommand's failure goes
 * through one mapping ({@link #run}): exit 0 on success; 2 on a usage error (a picocli
 * {@link ParameterException}, also thrown by commands for option values they cannot use); 3 on any
 * {@link ZarrException} (bad metadata, corrupt chunk, checksum mismatch, unsupported feature, missing
 * node), printed as the one line {@code zarrow: <message>} (stack trace only with {@code --verbose});
 * 1 on anything else, which is a bug. The library answers a caller's mistake (a region outside the
 * array, an invalid node path, a vector of the wrong type) with an {@link IllegalArgumentException} or
 * {@link IllegalStateException}: commands turn the ones the user's input can cause into usage errors
 * where they pass that input on ({@link ZarrowCommand#usage}), so one that reaches this mapping was the
 * CLI's own mistake, a bug (1), never blamed on the user. A new subcommand is a {@link ZarrowCommand}
 * added to {@link #SUBCOMMANDS} below.
 */
@Command(
    name = "zarrow",
    mixinStandardHelpOptions = true,
    scope = ScopeType.INHERIT, // every subcommand gets --help (and --version)
    versionProvider = Main.Version.class,
    description = "Zarr v3 arrays and groups as Apache Arrow. STORE is a store location: a directory (or file: URL),"
        + " http(s)://HOST/PATH (read-only), s3://BUCKET/PREFIX, a .zip archive (or zip:PATH), or memory:.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success",
      "1:internal error (a bug: please report it with --verbose output)",
      "2:usage error",
      "3:data error (bad metadata, corrupt chunk, checksum mismatch, unsupported feature, missing node)"
    })
public final class Main implements Callable<Integer> {
  public static final int OK = 0;
  public static final int INTERNAL_ERROR = 1;
  public static final int USAGE_ERROR = 2;
  public static final int DATA_ERROR = 3;

  /**
   * The subcommands, in the order help lists them. Only the one a command line names is registered
   * ({@link #subcommandsFor}): picocli reflects over every field and method of each registered class,
   * which loads every type they mention (Jackson, Arrow, the library), most of a short command's start.
   */
  static final List<Class<?>> SUBCOMMANDS = List.of(
      InfoCommand.class, LsCommand.class, CatCommand.class, CopyCommand.class, CheckCommand.class, ConsolidateCommand.class,
      ImportCommand.class, ExportCommand.class, ServeCommand.class, HashPasswordCommand.class, DemoCommand.class,
      CommandLine.HelpCommand.class);

  @Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--verbose", scope = ScopeType.INHERIT, description = "Print stack traces with errors.")
  boolean verbose;

  @Option(
      names = "--no-verify-checksums",
      scope = ScopeType.INHERIT,
      description = "Do not verify crc32c checksums on read (zarrs before 0.11.5 wrote wrong ones).")
  boolean noVerifyChecksums;

  /** Stdout as bytes, for commands that write binary output there (export to {@code -}). */
  PrintStream stdoutBytes = System.out;

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "missing command");
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command line with {@code args}, writing to {@code out} and {@code err}; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, true);
  }

  /** As {@link #run(String[], PrintStream, PrintStream)}; {@code directLines} false sends every line through picocli. */
  static int run(String[] args, PrintStream out, PrintStream err, boolean directLines) {
    PrintWriter stdout = new PrintWriter(new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8)));
    PrintWriter stderr = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
    try {
      // A bare version query needs no command model: picocli's classes and its reflection over Main
      // would be most of the run (README, "Start-up of the command line"). Same output as picocli's.
      if (Start.versionOnly(args)) {
        stdout.println(Start.versionLine());
        return OK;
      }
      // info and ls of plain arguments run without picocli's model, about 100 ms of their start (DirectLine).
      Integer direct = directLines ? DirectLine.run(args, out, stdout, stderr) : null;
      if (direct != null) {
        return direct;
      }
      Main main = new Main();
      main.stdoutBytes = out;
      CommandLine cli = new CommandLine(main);
      for (Class<?> command : subcommandsFor(args)) {
        cli.addSubcommand(command);
      }
      cli.setOut(stdout);
      cli.setErr(stderr);
      Failures failures = new Failures(stderr);
      cli.setParameterExceptionHandler(failures);
      cli.setExecutionExceptionHandler(failures);
      return cli.execute(args);
    } catch (RuntimeException | Error e) { // thrown outside a command (e.g. by picocli itself)
      return failure(e, args != null && java.util.Arrays.asList(args).contains("--verbose"), stderr);
    } finally {
      stdout.flush();
      stderr.flush();
    }
  }

  /**
   * The subcommands to register for {@code args}: the one its first word names; none when it names none
   * and asks no help (a version, or a missing command: nothing lists them); all for help and for a word
   * that is no command's name (help lists them, an error suggests the nearest). Top-level options
   * take no values, so the first word not starting with '-' is the command's.
   */
  static List<Class<?>> subcommandsFor(String[] args) {
    boolean help = false;
    for (String arg : args == null ? new String[0] : args) {
      if (arg.equals("--")) {
        return SUBCOMMANDS;
      }
      if (!arg.startsWith("-")) {
        for (Class<?> command : SUBCOMMANDS) {
          if (command.getAnnotation(Command.class).name().equals(arg) && command != CommandLine.HelpCommand.class) {
            return List.of(command);
          }
        }
        return SUBCOMMANDS;
      }
      help |= arg.equals("--help") || (!arg.startsWith("--") && arg.contains("h"));
    }
    return help ? SUBCOMMANDS : List.of();
  }

  /**
   * picocli's handlers of usage errors and of failed commands. A class, not two lambdas: a lambda of a
   * picocli interface cannot be kept in the class-data archive (picocli's Java 5 classes are not), so
   * each was made at run time by the lambda metafactory, with its method-handle classes.
   */
  private static final class Failures implements CommandLine.IParameterExceptionHandler, CommandLine.IExecutionExceptionHandler {
    private final PrintWriter err;

    Failures(PrintWriter err) {
      this.err = err;
    }

    @Override
    public int handleParseException(ParameterException e, String[] args) {
      return usageError(e, err);
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine line, ParseResult parsed) {
      return failure(e, verbose(parsed), err);
    }
  }

  private static int usageError(ParameterException e, PrintWriter err) {
    err.println("zarrow: " + oneLine(e.getMessage()));
    CommandLine line = e.getCommandLine();
    if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) {
      tryHelp(line.getCommandSpec().qualifiedName(), err);
    }
    return USAGE_ERROR;
  }

  /** The last line of a usage error: where help for {@code command} ({@code zarrow info}) is. */
  static void tryHelp(String command, PrintWriter err) {
    err.println("Try '" + command + " --help' for more information.");
  }

  static int failure(Throwable e, boolean verbose, PrintWriter err) {
    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    if (cause instanceof ZarrException) {
      err.println("zarrow: " + oneLine(cause.getMessage()));
    } else {
      err.println("zarrow: internal error: " + oneLine(String.valueOf(cause))
          + (verbose ? "" : " (run with --verbose for the stack trace)"));
    }
    if (verbose) {
      cause.printStackTrace(err);
    }
    err.flush();
    return cause instanceof ZarrException ? DATA_ERROR : INTERNAL_ERROR;
  }

  private static boolean verbose(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--verbose")) {
        return true;
      }
    }
    return false;
  }

  /** The message on one line: whatever a cause put on further lines joins the first. */
  static String oneLine(String message) {
    return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  /** {@code zarrow VERSION (Arrow VERSION, Java VERSION)} for picocli's version option. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {Start.versionLine()};
    }
  }
}
