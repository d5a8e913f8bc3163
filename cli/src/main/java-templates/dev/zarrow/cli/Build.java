package dev.zarrow.cli;

/**
 * The versions {@code zarrow --version} prints, filled in by Maven's resource filtering (cli/pom.xml) into
 * a source file: constants compiled into the classes of the class-data archive, where a resource would
 * have the class loader open the CLI's jar of some 19,000 entries on every {@code --version}.
 */
final class Build {
  static final String VERSION = "${project.version}";
  static final String ARROW_VERSION = "${arrow.version}";

  private Build() {}
}
