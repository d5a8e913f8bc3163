package dev.zarrow.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import org.junit.jupiter.api.Test;

/** When the CLI takes zarrow's own plugins without looking through the class path (LauncherIT runs it so). */
class OwnJarTest {
  private static final String JAR = "zarrow-cli-" + Build.VERSION;

  @Test
  void theCliJarAloneOnTheClassPathHoldsZarrowsPluginsOnly() {
    assertTrue(ZarrowCommand.ownJarAlone("/opt/zarrow/cli/target/" + JAR + "-launcher.jar"));
    assertTrue(ZarrowCommand.ownJarAlone(JAR + "-all.jar"));
  }

  @Test
  void anyOtherClassPathIsLookedThrough() {
    assertFalse(ZarrowCommand.ownJarAlone("/opt/zarrow/" + JAR + "-all.jar" + File.pathSeparator + "/opt/plugins/xor.jar"));
    assertFalse(ZarrowCommand.ownJarAlone("/opt/app/app-all.jar"), "a jar of someone else's, which may hold a plugin");
    assertFalse(ZarrowCommand.ownJarAlone("/opt/zarrow/" + JAR + ".jar"), "the thin jar");
    assertFalse(ZarrowCommand.ownJarAlone("target/classes"));
    assertFalse(ZarrowCommand.ownJarAlone(""));
    // The tests' own class path: many entries.
    assertFalse(ZarrowCommand.OWN_JAR_ALONE);
  }
}
