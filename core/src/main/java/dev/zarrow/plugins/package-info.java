/**
 * zarrow's own plugins as one registry, for {@code ZarrOptions.builtIn()}: the one place above the codec
 * implementations that names them (the API itself never does). Not exported.
 */
package dev.zarrow.plugins;
