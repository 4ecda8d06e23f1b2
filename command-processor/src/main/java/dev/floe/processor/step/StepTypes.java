package dev.floe.processor.step;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DatabindContext;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.jsontype.impl.TypeIdResolverBase;
import java.io.IOException;
import java.util.List;

/**
 * The {@code type} of each step on {@code floe.steps}. A {@link KindedStep} is one record for
 * tables and views, but has a name per kind, so a step reads the same whichever version wrote it.
 */
public final class StepTypes extends TypeIdResolverBase {
  private record Name(String id, Class<? extends Step> type, EntityKind kind) {}

  private static final List<Name> NAMES =
      List.of(
          new Name("create-table", CreateTableStep.class, null),
          new Name("drop-table", DropTableStep.class, null),
          new Name("release-table-name", ReleaseNameStep.class, EntityKind.TABLE),
          new Name("register-table", RegisterTableStep.class, null),
          new Name("move-table-out", MoveOutStep.class, EntityKind.TABLE),
          new Name("move-table-in", MoveInStep.class, EntityKind.TABLE),
          new Name("create-view", CreateViewStep.class, null),
          new Name("register-view", RegisterViewStep.class, null),
          new Name("drop-view", DropViewStep.class, null),
          new Name("move-view-out", MoveOutStep.class, EntityKind.VIEW),
          new Name("move-view-in", MoveInStep.class, EntityKind.VIEW),
          new Name("release-view-name", ReleaseNameStep.class, EntityKind.VIEW),
          new Name("idempotency-outcome", IdempotencyOutcomeStep.class, null),
          new Name("prepare-table", PrepareTableStep.class, null),
          new Name("transaction-vote", TransactionVoteStep.class, null),
          new Name("resolve-prepared", ResolvePreparedStep.class, null),
          new Name("move-table-grants", MoveGrantsStep.class, null),
          new Name("commit-relocated", CommitRelocatedStep.class, null),
          new Name("retain-deleted-table", RetainDeletedStep.class, EntityKind.TABLE),
          new Name("retain-deleted-view", RetainDeletedStep.class, EntityKind.VIEW),
          new Name("restore-table", RestoreStep.class, EntityKind.TABLE),
          new Name("restore-view", RestoreStep.class, EntityKind.VIEW));

  @Override
  public String idFromValue(Object value) {
    EntityKind kind = value instanceof KindedStep kinded ? kinded.kind() : null;
    return NAMES.stream()
        .filter(name -> name.type() == value.getClass() && name.kind() == kind)
        .map(Name::id)
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("Not a step: " + value));
  }

  @Override
  public String idFromValueAndType(Object value, Class<?> suggestedType) {
    return idFromValue(value);
  }

  @Override
  public JavaType typeFromId(DatabindContext context, String id) {
    return context.constructType(name(id).type());
  }

  @Override
  public JsonTypeInfo.Id getMechanism() {
    return JsonTypeInfo.Id.CUSTOM;
  }

  /** Which kind a step's {@code type} names, for the {@code kind} of a {@link KindedStep}. */
  static EntityKind kindOf(String id) {
    return name(id).kind();
  }

  private static Name name(String id) {
    return NAMES.stream()
        .filter(name -> name.id().equals(id))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("Unknown step type: " + id));
  }

  /** Reads a {@link KindedStep}'s kind from its {@code type}. */
  static final class KindDeserializer extends JsonDeserializer<EntityKind> {
    @Override
    public EntityKind deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      return kindOf(parser.getValueAsString());
    }
  }
}
