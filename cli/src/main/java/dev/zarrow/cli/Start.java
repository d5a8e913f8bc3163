package dev.zarrow.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The jar's entry point (its manifest's {@code Main-Class}): everything goes to {@link Main#run}, except a
 * bare {@code --version}, answered here without loading {@link Main} and picocli, whose first class not in
 * the class-data archive (or first resource) would have the class loader open the shaded jar and index
 * its entries, most of a version query's time (README, "Start-up of the command line").
 *
 * <p>With the system property {@code zarrow.classDataTraining=true} it runs {@link ClassDataTraining}
 * instead, as {@code bin/zarrow} asks when it records the archive.
 */
public final class Start {
  private Start() {}

  public static void main(String[] args) throws IOException {
    if (Boolean.getBoolean(ClassDataTraining.PROPERTY)) {
      ClassDataTraining.main(args);
    } else if (versionOnly(args)) {
      PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
      out.println(versionLine());
      out.flush();
      System.exit(Main.OK);
    } else {
      Main.main(args);
    }
  }

  /** True for a command line that is only a version query, which needs no command model. */
  static boolean versionOnly(String[] args) {
    return args != null && args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"));
  }

  /** {@code zarrow VERSION (Arrow VERSION, Java VERSION)}: what {@code --version} prints, here and through picocli. */
  static String versionLine() {
    return "zarrow " + Build.VERSION + " (Arrow " + Build.ARROW_VERSION + ", Java " + System.getProperty("java.version") + ")";
  }
}
