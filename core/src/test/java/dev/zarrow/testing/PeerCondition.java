package dev.zarrow.testing;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.AssertionFailedError;

/**
 * {@link NeedsPeer}'s mechanism. Each test (not the class: surefire counts a disabled class as one
 * test) is disabled while a peer it needs is missing, so surefire reports every one as skipped with
 * the reason; the class's {@code @BeforeAll}/{@code @AfterAll} methods, which would start or stop the
 * peer, are skipped then. On CI ({@code CI=true}, or the configuration parameter {@code zarrow.test.ci})
 * a missing peer fails the class's set-up and every test instead.
 */
public final class PeerCondition implements ExecutionCondition, InvocationInterceptor {
  /** Overrides the environment's {@code CI} (for testing this class). */
  public static final String CI_PARAMETER = "zarrow.test.ci";

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    if (context.getTestMethod().isEmpty()) {
      return ConditionEvaluationResult.enabled("peers are checked per test");
    }
    List<String> missing = missing(context);
    if (missing.isEmpty() || onCi(context)) {
      return ConditionEvaluationResult.enabled("peers available (or on CI, where a missing one fails)");
    }
    return ConditionEvaluationResult.disabled("SKIPPED: " + String.join("; ", missing));
  }

  @Override
  public void interceptBeforeAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
      ExtensionContext context) throws Throwable {
    List<String> missing = missing(context);
    if (missing.isEmpty()) {
      invocation.proceed();
    } else if (onCi(context)) {
      invocation.skip();
      throw failure(missing);
    } else {
      invocation.skip(); // every test is disabled: nothing to set up
    }
  }

  @Override
  public void interceptAfterAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
      ExtensionContext context) throws Throwable {
    if (missing(context).isEmpty()) {
      invocation.proceed();
    } else {
      invocation.skip(); // @BeforeAll did not run: nothing to tear down
    }
  }

  @Override
  public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
      ExtensionContext context) throws Throwable {
    proceedUnlessMissing(invocation, context);
  }

  @Override
  public <T> T interceptTestFactoryMethod(Invocation<T> invocation, ReflectiveInvocationContext<Method> call,
      ExtensionContext context) throws Throwable {
    return proceedUnlessMissing(invocation, context);
  }

  @Override
  public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
      ExtensionContext context) throws Throwable {
    proceedUnlessMissing(invocation, context);
  }

  /** A test reached with a peer missing runs on CI (elsewhere the condition disabled it): it fails. */
  private static <T> T proceedUnlessMissing(Invocation<T> invocation, ExtensionContext context) throws Throwable {
    List<String> missing = missing(context);
    if (!missing.isEmpty()) {
      invocation.skip();
      throw failure(missing);
    }
    return invocation.proceed();
  }

  private static AssertionFailedError failure(List<String> missing) {
    return new AssertionFailedError(String.join("; ", missing) + " (required on CI, CI=true)");
  }

  /** What is missing of the peers the test (and its classes) need, each with why and what to install. */
  static List<String> missing(ExtensionContext context) {
    Set<Peer> needed = new LinkedHashSet<>();
    for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
      c.getElement().ifPresent(e -> needed.addAll(peers(e)));
    }
    Set<String> hidden = Peer.hidden(context.getConfigurationParameter(Peer.HIDE_PARAMETER).orElse(null));
    List<String> missing = new ArrayList<>();
    for (Peer peer : needed) {
      Optional<String> why = peer.unavailable(hidden);
      why.ifPresent(w -> missing.add("needs " + peer.id() + ", unavailable: " + w + "; install it with `" + peer.install() + "`"));
    }
    return missing;
  }

  private static List<Peer> peers(AnnotatedElement element) {
    return AnnotationSupport.findAnnotation(element, NeedsPeer.class).map(n -> List.of(n.value())).orElse(List.of());
  }

  private static boolean onCi(ExtensionContext context) {
    return "true".equals(context.getConfigurationParameter(CI_PARAMETER).orElse(System.getenv("CI")));
  }
}
