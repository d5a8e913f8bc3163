package dev.zarrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.zarrow.spi.Registry;
import org.junit.jupiter.api.Test;

class ZarrOptionsTest {
  @Test
  void builtInKnowsWhatTheClassPathLookupFindsOfZarrowsOwn() {
    // The test class path holds core's plugins only (its META-INF/services): a plugin added there and not
    // to builtIn(), or the other way round, shows here as a name one side lacks.
    Registry found = Registry.defaults();
    Registry builtIn = ZarrOptions.builtIn().registry();
    assertEquals(found.codecNames(), builtIn.codecNames());
    assertEquals(found.dataTypeNames(), builtIn.dataTypeNames());
  }

  @Test
  void builtInIsTheDefaultsButForTheRegistry() {
    ZarrOptions builtIn = ZarrOptions.builtIn();
    ZarrOptions defaults = ZarrOptions.defaults();
    assertEquals(defaults.codecs(), builtIn.codecs());
    assertSame(defaults.executor(), builtIn.executor());
    assertSame(builtIn.registry(), ZarrOptions.builtIn().registry(), "made once");
  }
}
