/**
 * The {@code zarrow} command line ({@link dev.zarrow.cli.Main}; README.md, "Command line"): {@code info},
 * {@code ls}, {@code cat}, {@code copy}, {@code check} and {@code demo}, each a {@code ZarrowCommand}
 * listed in {@code Main}'s {@code subcommands}, where {@code import} and {@code export} join them. Every
 * failure goes through {@code Main}'s one mapping to exit codes 0/1/2/3.
 *
 * <p>Uses zarrow's public API only (stores, nodes, arrays, metadata, registry) and picocli; nothing
 * else depends on this package.
 */
package dev.zarrow.cli;
