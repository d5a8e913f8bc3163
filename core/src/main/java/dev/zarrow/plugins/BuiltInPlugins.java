package dev.zarrow.plugins;

import dev.zarrow.codec.arrow.ArrowPlugin;
import dev.zarrow.codec.blosc.BloscPlugin;
import dev.zarrow.codec.core.CorePlugin;
import dev.zarrow.codec.numcodecs.NumcodecsPlugin;
import dev.zarrow.codec.sharding.ShardingPlugin;
import dev.zarrow.codec.vlen.VlenPlugin;
import dev.zarrow.spi.Registry;

/**
 * zarrow's own plugins, the ones core's {@code META-INF/services} and {@code module-info} name, in their
 * order ({@code ZarrOptionsTest} and {@code ModuleInfoTest} keep the three lists one).
 */
public final class BuiltInPlugins {
  /** A registry of them, made by constructing each: no class-path lookup. */
  public static final Registry REGISTRY = Registry.empty().with(new CorePlugin()).with(new ShardingPlugin())
      .with(new VlenPlugin()).with(new ArrowPlugin()).with(new BloscPlugin()).with(new NumcodecsPlugin());

  private BuiltInPlugins() {}
}
