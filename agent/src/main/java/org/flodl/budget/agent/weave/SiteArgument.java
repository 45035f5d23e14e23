package org.flodl.budget.agent.weave;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds an advice parameter to the argument the site names (its {@code value} or {@code depth}
 * index), writable and dynamically typed, so one advice class serves every index.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface SiteArgument {}
