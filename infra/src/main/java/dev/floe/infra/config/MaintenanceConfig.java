package dev.floe.infra.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The catalog's own table maintenance: which tables it expires snapshots of, and how often it
 * looks. A warehouse opts in with {@code floe.warehouse.<w>.maintenance}: {@code off} (the default:
 * nothing runs), {@code opted-in} (tables whose property {@code floe.maintenance.enabled} is {@code
 * true}), {@code all} (every table but those that set it to {@code false}).
 *
 * @param modes each warehouse that set {@code maintenance}, and its mode
 * @param interval how often the maintainer looks at the tables ({@code floe.maintenance.interval})
 */
public record MaintenanceConfig(Map<String, Mode> modes, Duration interval) {
  /** The table property that opts a table in (or, under {@code all}, out). */
  public static final String TABLE_PROPERTY = "floe.maintenance.enabled";

  /** The principal the catalog's own maintenance commits as. */
  public static final String PRINCIPAL = "floe-maintenance";

  /** A warehouse's maintenance mode. */
  public enum Mode {
    OFF,
    OPTED_IN,
    ALL;

    String spelled() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  public MaintenanceConfig {
    modes = Map.copyOf(modes);
  }

  public Mode mode(String warehouse) {
    return modes.getOrDefault(warehouse, Mode.OFF);
  }

  /**
   * Whether the catalog maintains a table of this warehouse with these properties, and why: the
   * answer's text says which setting decided it.
   */
  public Decision decide(String warehouse, Map<String, String> tableProperties) {
    Mode mode = mode(warehouse);
    String property = tableProperties.get(TABLE_PROPERTY);
    String setting = "floe.warehouse." + warehouse + ".maintenance=" + mode.spelled();
    return switch (mode) {
      case OFF -> new Decision(false, setting);
      case OPTED_IN ->
          "true".equalsIgnoreCase(property)
              ? new Decision(true, setting + " and " + TABLE_PROPERTY + "=true")
              : new Decision(false, setting + " and " + TABLE_PROPERTY + " is not true");
      case ALL ->
          "false".equalsIgnoreCase(property)
              ? new Decision(false, TABLE_PROPERTY + "=false")
              : new Decision(true, setting);
    };
  }

  /** Whether a table is maintained on the schedule, and the settings that decided it. */
  public record Decision(boolean scheduled, String because) {}

  static MaintenanceConfig fromProperties(Properties props) {
    Map<String, Mode> modes = new TreeMap<>();
    String suffix = ".maintenance";
    for (String name : props.stringPropertyNames()) {
      if (name.startsWith(ConfigKeys.WAREHOUSE) && name.endsWith(suffix)) {
        String warehouse =
            name.substring(ConfigKeys.WAREHOUSE.length(), name.length() - suffix.length());
        String value = props.getProperty(name).trim();
        Mode mode =
            switch (value) {
              case "off" -> Mode.OFF;
              case "opted-in" -> Mode.OPTED_IN;
              case "all" -> Mode.ALL;
              default ->
                  throw new IllegalArgumentException(
                      name + " must be off, opted-in or all: " + value);
            };
        modes.put(warehouse, mode);
      }
    }
    String interval = props.getProperty("floe.maintenance.interval", "PT1H").trim();
    Duration parsed;
    try {
      parsed = Duration.parse(interval);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "floe.maintenance.interval must be an ISO-8601 duration such as PT1H: " + interval, e);
    }
    if (parsed.isNegative() || parsed.isZero()) {
      throw new IllegalArgumentException(
          "floe.maintenance.interval must be longer than zero: " + interval);
    }
    return new MaintenanceConfig(modes, parsed);
  }
}
