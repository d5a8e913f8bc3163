package dev.zarrow.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Test classes whose {@code @BeforeAll} starts a peer, run by JUnit with that peer hidden: every test is
 * reported as skipped, with the reason and the package to install (a class that aborted in its
 * {@code @BeforeAll} used to report no test at all: "Tests run: 0, Skipped: 0"); on CI the class fails.
 */
class PeerConditionTest {
  /** What JUnit reported: tests skipped (with reasons), started, and containers that failed. */
  private static final class Report implements TestExecutionListener {
    final List<String> skipped = new ArrayList<>();
    final List<String> started = new ArrayList<>();
    final List<String> failed = new ArrayList<>();

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
      skipped.add(id.getDisplayName() + ": " + reason);
    }

    @Override
    public void executionStarted(TestIdentifier id) {
      if (id.isTest()) {
        started.add(id.getDisplayName());
      }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
      if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
        failed.add(id.getDisplayName() + ": " + result.getThrowable().map(Throwable::getMessage).orElse(""));
      }
    }
  }

  private static Report run(String testClass, Map<String, String> parameters) {
    Report report = new Report();
    LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
        .selectors(DiscoverySelectors.selectClass(testClass))
        .configurationParameters(parameters)
        .build(), report);
    return report;
  }

  @Test
  void withoutNginxEveryTestOfTheHttpClassIsSkippedSayingWhatToInstall() {
    Report report = run("dev.zarrow.store.http.HttpStoreNginxTest",
        Map.of(Peer.HIDE_PARAMETER, "nginx", PeerCondition.CI_PARAMETER, "false"));
    assertEquals(List.of(), report.failed);
    assertEquals(List.of(), report.started);
    assertEquals(4, report.skipped.size(), report.skipped.toString()); // its four tests
    for (String skipped : report.skipped) {
      assertTrue(skipped.contains("needs nginx, unavailable: hidden by ZARROW_TEST_HIDE_PEERS; install it with `apt-get install nginx`"),
          skipped);
    }
  }

  @Test
  void withoutPythonEveryTestOfTheV2MatrixIsSkipped() {
    Report report = run("dev.zarrow.interop.ZarrV2MatrixInteropTest",
        Map.of(Peer.HIDE_PARAMETER, "python", PeerCondition.CI_PARAMETER, "false"));
    assertEquals(List.of(), report.failed);
    assertEquals(List.of(), report.started);
    assertTrue(report.skipped.size() >= 3, report.skipped.toString());
    assertTrue(report.skipped.stream().allMatch(s -> s.contains("apt-get install python3 python3-numpy python3-numcodecs python3-zarr")),
        report.skipped.toString());
  }

  @Test
  void onCiAMissingPeerFailsTheClass() {
    Report report = run("dev.zarrow.store.http.HttpStoreNginxTest",
        Map.of(Peer.HIDE_PARAMETER, "nginx", PeerCondition.CI_PARAMETER, "true"));
    assertEquals(List.of(), report.skipped);
    assertEquals(List.of(), report.started);
    assertEquals(1, report.failed.size(), report.failed.toString());
    assertTrue(report.failed.get(0).startsWith("HttpStoreNginxTest: needs nginx"), report.failed.toString());
    assertTrue(report.failed.get(0).endsWith("(required on CI, CI=true)"), report.failed.toString());
  }
}
