import { randomInt } from 'node:crypto';

/** The slider's picture: 300×150, with a jigsaw notch the piece (48×50) must be dragged onto. */
export const SLIDER_WIDTH = 300;
export const SLIDER_HEIGHT = 150;
export const PIECE_SIZE = 40;
const KNOB = 8;
export const PIECE_WIDTH = PIECE_SIZE + KNOB;
export const PIECE_HEIGHT = PIECE_SIZE + KNOB + 2;

/** The jigsaw outline with its bounding box's top-left at (ox, oy): a square, knobs on top and right. */
export function piecePath(ox: number, oy: number): string {
  const top = oy + KNOB + 2;
  const s = PIECE_SIZE;
  return [
    `M${ox},${top}`,
    `L${ox + 12},${top}`,
    `A${KNOB},${KNOB} 0 0 1 ${ox + 28},${top}`,
    `L${ox + s},${top}`,
    `L${ox + s},${top + 12}`,
    `A${KNOB},${KNOB} 0 0 1 ${ox + s},${top + 28}`,
    `L${ox + s},${top + s}`,
    `L${ox},${top + s}`,
    'Z',
  ].join(' ');
}

const hue = () => randomInt(360);

/**
 * An SVG has no pixels to hide the notch in, so the picture is a speed bump against scripted
 * logins, not a wall: the notch is drawn in absolute coordinates among shuffled decorations, and
 * the piece carries nothing of where it came from. Rate limits and single use do the rest.
 */
export function drawSlider(x: number, y: number): { background: string; piece: string } {
  const base = hue();
  const shapes: string[] = [];
  for (let i = 0; i < 10; i++) {
    shapes.push(
      `<circle cx="${randomInt(SLIDER_WIDTH)}" cy="${randomInt(SLIDER_HEIGHT)}" r="${randomInt(8, 40)}" fill="hsl(${hue()},60%,60%)" fill-opacity="0.45"/>`,
    );
  }
  for (let i = 0; i < 4; i++) {
    const points = Array.from(
      { length: 4 },
      () => `${randomInt(SLIDER_WIDTH)},${randomInt(SLIDER_HEIGHT)}`,
    ).join(' ');
    shapes.push(
      `<polyline points="${points}" fill="none" stroke="hsl(${hue()},50%,40%)" stroke-opacity="0.5" stroke-width="2"/>`,
    );
  }
  shapes.push(
    `<path d="${piecePath(x, y)}" fill="#000" fill-opacity="0.45" stroke="#fff" stroke-opacity="0.9" stroke-width="1.5"/>`,
  );
  shuffle(shapes);
  const background =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SLIDER_WIDTH}" height="${SLIDER_HEIGHT}" viewBox="0 0 ${SLIDER_WIDTH} ${SLIDER_HEIGHT}">` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${base},55%,75%)"/><stop offset="1" stop-color="hsl(${(base + 120) % 360},55%,55%)"/></linearGradient></defs>` +
    `<rect width="${SLIDER_WIDTH}" height="${SLIDER_HEIGHT}" fill="url(#bg)"/>${shapes.join('')}</svg>`;
  const piece =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PIECE_WIDTH}" height="${PIECE_HEIGHT}" viewBox="0 0 ${PIECE_WIDTH} ${PIECE_HEIGHT}">` +
    `<defs><linearGradient id="pc" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${base},70%,85%)"/><stop offset="1" stop-color="hsl(${(base + 60) % 360},70%,65%)"/></linearGradient></defs>` +
    `<path d="${piecePath(0, 0)}" fill="url(#pc)" stroke="#fff" stroke-width="2"/></svg>`;
  return { background, piece };
}

function shuffle<T>(items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}
