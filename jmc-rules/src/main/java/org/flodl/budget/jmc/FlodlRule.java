package org.flodl.budget.jmc;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;
import org.flodl.budget.findings.Facts;
import org.flodl.budget.findings.Finding;
import org.flodl.budget.findings.Findings;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.common.util.IPreferenceValueProvider;
import org.openjdk.jmc.common.util.TypedPreference;
import org.openjdk.jmc.flightrecorder.rules.IResult;
import org.openjdk.jmc.flightrecorder.rules.IResultValueProvider;
import org.openjdk.jmc.flightrecorder.rules.IRule;
import org.openjdk.jmc.flightrecorder.rules.ResultBuilder;
import org.openjdk.jmc.flightrecorder.rules.Severity;
import org.openjdk.jmc.flightrecorder.rules.TypedResult;
import org.openjdk.jmc.flightrecorder.rules.util.RulesToolkit.EventAvailability;

/**
 * One of flodl-budget's findings as a Mission Control rule: the recording's flodl events read into
 * {@link Facts} and the finding drawn by {@link Findings}, the same as the agent's {@code report}
 * draws it, shown with its severity, summary, explanation and solution. Topic {@code flodl-budget}.
 */
public abstract class FlodlRule implements IRule {
  /** The topic the rules are shown under. */
  public static final String TOPIC = "flodl-budget";

  private final Findings.Rule rule;

  FlodlRule(Findings.Rule rule) {
    this.rule = rule;
  }

  /** Returns the facts of {@code items}: every flodl event, and the recordings' own. */
  static Facts facts(IItemCollection items) {
    Facts facts = new Facts();
    IItemCollection ours =
        items.apply(
            ItemFilters.or(
                ItemFilters.typeMatches("flodl\\..*"), ItemFilters.type("jdk.ActiveRecording")));
    for (IItemIterable it : ours) {
      JmcFields fields = new JmcFields(it.getType());
      for (IItem item : it) {
        facts.accept(fields.of(item));
      }
    }
    return facts;
  }

  @Override
  public RunnableFuture<IResult> createEvaluation(
      IItemCollection items,
      IPreferenceValueProvider preferences,
      IResultValueProvider dependencies) {
    return new FutureTask<>(
        () ->
            result(
                Findings.of(rule, facts(items)),
                preferences == null ? IPreferenceValueProvider.DEFAULT_VALUES : preferences));
  }

  private IResult result(Finding f, IPreferenceValueProvider preferences) {
    ResultBuilder b =
        ResultBuilder.createFor(this, preferences)
            .setSeverity(severity(f))
            .setSummary(f.summary())
            .setExplanation(f.explanation());
    if (!f.solution().isEmpty()) {
      b.setSolution(f.solution());
    }
    if (f.severity().score() >= 0) {
      b.addResult(TypedResult.SCORE, UnitLookup.NUMBER_UNITY.quantity(f.severity().score()));
    }
    return b.build();
  }

  static Severity severity(Finding f) {
    return switch (f.severity()) {
      case NA -> Severity.NA;
      case OK -> Severity.OK;
      case INFO -> Severity.INFO;
      case WARNING -> Severity.WARNING;
    };
  }

  @Override
  public String getId() {
    return rule.id();
  }

  @Override
  public String getName() {
    return rule.title();
  }

  @Override
  public String getTopic() {
    return TOPIC;
  }

  @Override
  public Map<String, EventAvailability> getRequiredEvents() {
    return Collections.emptyMap(); // without flodl events the finding says NA, and why
  }

  @Override
  public Collection<TypedPreference<?>> getConfigurationAttributes() {
    return List.of();
  }

  @Override
  public Collection<TypedResult<?>> getResults() {
    return List.of(TypedResult.SCORE);
  }
}
