// The seek slider tells assistive technology the same length as its text.
import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import { SeekWaveform } from "~/components/player/seek-waveform";

it("names the same whole seconds in aria-valuemax as in its text (35.6 s is 0:35 and 35)", () => {
  const html = renderToStaticMarkup(<SeekWaveform peaks={null} time={12.4} duration={35.6} onSeek={null} />);
  expect(html).toContain('aria-valuemax="35"');
  expect(html).toContain('aria-valuenow="12"');
  expect(html).toContain('aria-valuetext="0:12 of 0:35"');
});
