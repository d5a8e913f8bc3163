package dev.zarrow.cli;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates made by the JDK's keytool for a test: a CA, a server certificate it signs (for
 * localhost and 127.0.0.1), a client certificate it signs, and a certificate of another CA that signs
 * nothing of ours. Files are PEM; private keys PKCS#8 ({@code BEGIN PRIVATE KEY}), as {@code serve}
 * takes them.
 */
final class TestCertificates {
  private static final String PASSWORD = "test-only";
  final Path ca;
  final Path serverCert;
  final Path serverKey;
  final Path clientCert;
  final Path clientKey;
  final Path otherCa;
  final Path otherClientCert;
  final Path otherClientKey;

  TestCertificates(Path dir) throws Exception {
    Files.createDirectories(dir);
    ca = authority(dir, "ca");
    serverCert = signed(dir, "ca", "server", "CN=localhost", "SAN=dns:localhost,ip:127.0.0.1", "EKU=serverAuth");
    serverKey = key(dir, "server");
    clientCert = signed(dir, "ca", "client", "CN=client", null, "EKU=clientAuth");
    clientKey = key(dir, "client");
    otherCa = authority(dir, "other");
    otherClientCert = signed(dir, "other", "stranger", "CN=stranger", null, "EKU=clientAuth");
    otherClientKey = key(dir, "stranger");
  }

  private static Path authority(Path dir, String name) throws Exception {
    keytool(dir, "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name + " test CA",
        "-ext", "bc:c", "-validity", "2", "-keystore", name + ".p12");
    keytool(dir, "-exportcert", "-rfc", "-alias", name, "-keystore", name + ".p12", "-file", name + ".pem");
    return dir.resolve(name + ".pem");
  }

  private static Path signed(Path dir, String by, String name, String dname, String san, String eku) throws Exception {
    keytool(dir, "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", dname,
        "-validity", "2", "-keystore", name + ".p12");
    keytool(dir, "-certreq", "-alias", name, "-keystore", name + ".p12", "-file", name + ".csr");
    List<String> gencert = new ArrayList<>(List.of("-gencert", "-rfc", "-alias", by, "-keystore", by + ".p12",
        "-infile", name + ".csr", "-outfile", name + ".pem", "-validity", "2", "-ext", eku));
    if (san != null) {
      gencert.addAll(List.of("-ext", san));
    }
    keytool(dir, gencert.toArray(String[]::new));
    return dir.resolve(name + ".pem");
  }

  /** The private key of {@code name}'s key store as PKCS#8 PEM. */
  private static Path key(Path dir, String name) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(dir.resolve(name + ".p12"))) {
      store.load(in, PASSWORD.toCharArray());
    }
    PrivateKey key = (PrivateKey) store.getKey(name, PASSWORD.toCharArray());
    String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(key.getEncoded()) + "\n-----END PRIVATE KEY-----\n";
    Path file = dir.resolve(name + "-key.pem");
    Files.writeString(file, pem);
    return file;
  }

  private static void keytool(Path dir, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    command.addAll(List.of("-storepass", PASSWORD, "-keypass", PASSWORD, "-storetype", "PKCS12", "-noprompt"));
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + output);
    }
  }
}
