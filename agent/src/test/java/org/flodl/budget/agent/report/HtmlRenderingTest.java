package org.flodl.budget.agent.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report rendered by headless Chromium: the DOM it builds holds the three charts, and the
 * screenshot shows the held (blue) and budget (red) lines. Chromium is not part of the build: where
 * it is missing the test is skipped with a message saying so.
 */
class HtmlRenderingTest {
  static final List<String> BROWSERS = List.of("chromium", "chromium-browser", "google-chrome");

  static Optional<Path> browser() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      for (String name : BROWSERS) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }

  static String run(Path browser, String... args) throws Exception {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                browser.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(180, TimeUnit.SECONDS), "chromium did not finish");
    assertEquals(0, p.exitValue(), out);
    return out;
  }

  @Test
  void chromiumRendersThePageWithItsCharts(@TempDir Path dir) throws Exception {
    Optional<Path> browser = browser();
    if (browser.isEmpty()) {
      org.flodl.budget.agent.it.Preconditions.unmet(
          "no chromium on PATH, the HTML report was not"
              + " rendered (Debian: apt-get install chromium; .ci/run installs it)");
    }
    Path jfr = dir.resolve("budget.jfr");
    Path html = dir.resolve("report.html");
    Path png = dir.resolve("report.png");
    TrainingScenario.record(jfr, 80, Duration.ofMillis(800), Duration.ofMillis(20), true);
    java.io.PrintStream quiet = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
    assertEquals(
        0,
        ReportCommand.run(
            new String[] {jfr.toString(), "--html", html.toString()}, quiet, System.err));

    String dom = run(browser.get(), "--dump-dom", html.toUri().toString());
    assertEquals(3, ReportCommandTest.count(dom, "<svg "), "charts in Chromium's DOM");
    assertTrue(dom.contains("<polyline"), "chart lines in Chromium's DOM");

    run(browser.get(), "--screenshot=" + png, "--window-size=1280,1600", html.toUri().toString());
    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(1280, image.getWidth());
    assertEquals(1600, image.getHeight());
    long blue = 0;
    long red = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int rgb = image.getRGB(x, y) & 0xffffff;
        int r = rgb >> 16;
        int g = (rgb >> 8) & 0xff;
        int b = rgb & 0xff;
        blue +=
            (Math.abs(r - 0x1f) < 24 && Math.abs(g - 0x77) < 24 && Math.abs(b - 0xb4) < 24) ? 1 : 0;
        red +=
            (Math.abs(r - 0xd6) < 24 && Math.abs(g - 0x27) < 24 && Math.abs(b - 0x28) < 24) ? 1 : 0;
      }
    }
    assertTrue(blue > 500, "the held lines are drawn: " + blue + " blue pixels");
    assertTrue(red > 200, "the budget lines are drawn: " + red + " red pixels");
  }
}
