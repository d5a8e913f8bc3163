// The consumer's resolved dependencies (dependency:tree in tree.txt): each Jackson module on one line,
// the 2.20 line of Spark 4.1.0; each Arrow module on one version; no CLI-only jar and no SLF4J provider
// (the library leaves logging to the application). Then the program's own line in the build log.
def tree = new File(basedir, 'tree.txt')
assert tree.isFile() : 'dependency:tree wrote no tree.txt'
def versions = [:]
tree.eachLine { line ->
  def m = line =~ /([\w.-]+):([\w.-]+):jar:([\w.-]+):(compile|runtime)/
  if (m.find()) {
    versions[m.group(1) + ':' + m.group(2)] = m.group(3)
  }
}
def jackson = versions.findAll { k, v -> k.startsWith('com.fasterxml.jackson') }
def arrow = versions.findAll { k, v -> k.startsWith('org.apache.arrow:') }
assert jackson.keySet().containsAll(['com.fasterxml.jackson.core:jackson-core',
    'com.fasterxml.jackson.core:jackson-annotations', 'com.fasterxml.jackson.core:jackson-databind']) : jackson
def jacksonLines = jackson.values().collect { it.tokenize('.').take(2).join('.') } as Set
assert jacksonLines == ['2.20'] as Set : "Jackson modules on more than Spark 4.1.0's line 2.20: $jackson"
assert arrow.size() >= 3 && (arrow.values() as Set).size() == 1 : "Arrow modules on more than one version: $arrow"
def unwanted = versions.keySet().findAll { it ==~ /info\.picocli:.*|org\.slf4j:slf4j-(nop|simple|reload4j|jdk14)|ch\.qos\.logback:.*|org\.apache\.logging\.log4j:log4j-slf4j.*/ }
assert unwanted.isEmpty() : "the library brings CLI-only or logging-provider jars: $unwanted"
def log = new File(basedir, 'build.log').text
assert log.contains('zarrow consumer: array and table written and read back') : 'the program did not finish'
return true
