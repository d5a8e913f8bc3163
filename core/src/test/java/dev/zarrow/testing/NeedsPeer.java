package dev.zarrow.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The annotated test class or method needs these peers. Without one, each test is reported as skipped
 * (disabled, with the reason and the Debian packages to install) and a class's {@code @BeforeAll} and
 * {@code @AfterAll} methods are not run; on CI ({@code CI=true}) the tests fail instead. See {@link
 * PeerCondition}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(PeerCondition.class)
public @interface NeedsPeer {
  Peer[] value();
}
