package dev.floe.server.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real browser for the console's tests: Debian's {@code chromium}, headless, driven through its
 * {@code chromedriver} (never a browser downloaded at run time). Each instance is a fresh profile,
 * so one test's session storage never reaches another's.
 */
public final class Browser implements AutoCloseable {
  public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  private final WebDriver driver;
  private final Path profile;
  private final List<String> errors = new ArrayList<>();

  /** Whether this machine has the browser and its driver ({@code .ci/run} installs them). */
  public static boolean available() {
    return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
  }

  public Browser() throws IOException {
    profile = Files.createTempDirectory("floe-chromium-");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        "--user-data-dir=" + profile);
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    options.setExperimentalOption("prefs", Map.of("credentials_enable_service", false));
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build();
    driver = new ChromeDriver(service, options);
  }

  public WebDriver driver() {
    return driver;
  }

  public void open(String url) {
    driver.get(url);
  }

  /** The element with this {@code data-test}, once it is there (or fails after {@code wait}). */
  public WebElement await(String dataTest, Duration wait) {
    return new WebDriverWait(driver, wait)
        .until(ExpectedConditions.presenceOfElementLocated(test(dataTest)));
  }

  public WebElement await(String dataTest) {
    return await(dataTest, Duration.ofSeconds(10));
  }

  public List<WebElement> all(String dataTest) {
    return driver.findElements(test(dataTest));
  }

  public static By test(String dataTest) {
    return By.cssSelector("[data-test=\"" + dataTest + "\"]");
  }

  /**
   * What the browser's console logged at level SEVERE since the last call (errors, failed loads):
   * the console must stay free of them.
   */
  public List<String> consoleErrors() {
    for (LogEntry entry : driver.manage().logs().get(LogType.BROWSER)) {
      if (entry.getLevel().intValue() >= Level.SEVERE.intValue()) {
        errors.add(entry.getMessage());
      }
    }
    List<String> found = List.copyOf(errors);
    errors.clear();
    return found;
  }

  /** Saves what the browser shows as a PNG. */
  public void screenshot(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      try (var files = Files.walk(profile)) {
        files
            .sorted((a, b) -> b.getNameCount() - a.getNameCount())
            .forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        // a temporary profile left behind
      }
    }
  }
}
