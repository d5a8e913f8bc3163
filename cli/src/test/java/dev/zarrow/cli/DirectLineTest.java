package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** {@link DirectLine}: the lines it runs print and exit exactly as through picocli; the others are left to picocli. */
class DirectLineTest {
  @TempDir static Path dir;
  static String demo;

  @BeforeAll
  static void demoWithADamagedNode() throws Exception {
    demo = dir.resolve("demo").toString();
    assertEquals(0, Cli.run("demo", demo).exit());
    Path damaged = Files.createDirectories(dir.resolve("damaged/bad"));
    Files.writeString(dir.resolve("damaged/zarr.json"), "{\"zarr_format\": 3, \"node_type\": \"group\"}");
    Files.writeString(damaged.resolve("zarr.json"), "{\"zarr_format\": 3, \"node_type\": ");
  }

  private static List<String[]> directLines() {
    String damaged = dir.resolve("damaged").toString();
    String missing = dir.resolve("no-such-store").toString();
    return List.of(
        new String[] {"info", demo},
        new String[] {"info", demo, "numbers/grid"},
        new String[] {"info", demo, ""},
        new String[] {"info", demo, "/numbers/"},
        new String[] {"info", demo, "numbers/grid", "--verbose"},
        new String[] {"info", "--no-verify-checksums", demo, "readings"},
        new String[] {"info", demo, "no/such/node"},
        new String[] {"info", demo, "no/such/node", "--verbose"},
        new String[] {"info", demo, "bad//path"},
        new String[] {"info", demo, "../up"},
        new String[] {"info", missing},
        new String[] {"info", "nonsense://x"},
        new String[] {"info", ""},
        new String[] {"info", damaged, "bad"},
        new String[] {"ls", demo},
        new String[] {"ls", demo, "--json"},
        new String[] {"ls", "--json", demo, "numbers"},
        new String[] {"ls", demo, "strings", "--verbose", "--no-verify-checksums"},
        new String[] {"ls", damaged},
        new String[] {"ls", damaged, "--json", "--verbose"},
        new String[] {"ls", demo, "no/such/node"},
        new String[] {"ls", demo, "bad//path"},
        new String[] {"ls", missing});
  }

  /** The result without the frames of stack traces (--verbose), which name picocli's methods or not. */
  private static Cli.Result withoutFrames(Cli.Result r) {
    return new Cli.Result(r.exit(), r.out(), r.err().replaceAll("(?m)^\\s+(at |\\.\\.\\. \\d+ more).*\n", ""));
  }

  @Test
  void directLinesPrintAndExitAsThroughPicocli() {
    for (String[] line : directLines()) {
      Cli.Result picocli = Cli.runThroughPicocli((Object[]) line);
      Cli.Result direct = Cli.run((Object[]) line);
      assertEquals(withoutFrames(picocli), withoutFrames(direct), String.join(" ", line));
    }
  }

  private static Integer runDirect(String... args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StringWriter text = new StringWriter();
    try (PrintStream stdout = new PrintStream(bytes, true, StandardCharsets.UTF_8); PrintWriter writer = new PrintWriter(text)) {
      return DirectLine.run(args, stdout, writer, writer);
    }
  }

  @Test
  void theseLinesAreRunHereAndNoOthers() {
    for (String[] line : directLines()) {
      assertNotNull(runDirect(line), String.join(" ", line));
    }
    for (String[] line : List.of(new String[] {"info"}, new String[] {"info", "a", "b", "c"}, new String[] {"info", "--json", demo},
        new String[] {"ls", demo, "--json", "--json"}, new String[] {"info", demo, "--verbose", "--verbose"},
        new String[] {"info", "@args"}, new String[] {"info", "-h"}, new String[] {"info", demo, "--help"},
        new String[] {"--verbose", "info", demo}, new String[] {"info", "--", demo}, new String[] {"info", demo, "-"},
        new String[] {"cat", demo, "numbers/grid"}, new String[] {"info", demo, "--verbose=true"})) {
      assertNull(runDirect(line), String.join(" ", line));
      Cli.Result picocli = Cli.runThroughPicocli((Object[]) line);
      assertEquals(picocli, Cli.run((Object[]) line), String.join(" ", line));
    }
  }

  /** What picocli knows of a command: its options' names and how many positional parameters it takes. */
  private static Set<String> model(Class<?> command) {
    CommandLine cli = new CommandLine(new Main());
    cli.addSubcommand(command);
    CommandSpec spec = cli.getSubcommands().values().iterator().next().getCommandSpec();
    Set<String> names = new TreeSet<>();
    for (OptionSpec option : spec.options()) {
      names.addAll(List.of(option.names()));
    }
    names.add(spec.positionalParameters().size() + " positional");
    return names;
  }

  @Test
  void picocliKnowsNoOtherOptionOfTheseCommands() {
    // A new option of info or ls must be taught to DirectLine (or its lines left to picocli): this fails first.
    Set<String> common = Set.of("--help", "-h", "--version", "-V", "--verbose", "--no-verify-checksums", "2 positional");
    assertEquals(new TreeSet<>(common), model(InfoCommand.class));
    Set<String> ls = new TreeSet<>(common);
    ls.add("--json");
    assertEquals(ls, model(LsCommand.class));
    assertEquals(DirectLine.GLOBAL_SWITCHES, Set.of("--verbose", "--no-verify-checksums"));
  }
}
