package org.flodl.budget.agent.weave;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Binds an advice parameter to the woven point's constant id (a constant push in the target). */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface SiteId {}
