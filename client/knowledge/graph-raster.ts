// A software-rendered canvas spends more on a large graph's base layer than script does writing its
// pixels (measured in headless Chromium at 2,000 nodes and 10,852 edges: one stroke of the edges
// 15–28 ms against 7–12 ms; the nodes' anti-aliased arcs 15–20 ms a frame against 2–4 ms sharp), so
// large graphs get their quiet edges as straight pixel runs and their nodes as filled discs.

/** Clips a segment in device pixels to [0, width) × [0, height) into `out` (x0, y0, x1, y1); false when it lies outside. */
export function clipSegment(x0: number, y0: number, x1: number, y1: number, width: number, height: number, out: Float64Array): boolean {
  // Liang–Barsky: the part of the segment, as t in [0, 1], inside each of the four edges; the range
  // narrows in out[0..1] (no closure to allocate for each of a frame's ten thousand edges).
  const dx = x1 - x0
  const dy = y1 - y0
  out[0] = 0
  out[1] = 1
  if (!narrow(out, -dx, x0) || !narrow(out, dx, width - 1 - x0) || !narrow(out, -dy, y0) || !narrow(out, dy, height - 1 - y0)) return false
  const from = out[0]!
  const to = out[1]!
  out[0] = x0 + dx * from
  out[1] = y0 + dy * from
  out[2] = x0 + dx * to
  out[3] = y0 + dy * to
  return true
}

/** Narrows `range` ([from, to] in its first two places) to one edge's side; false once it is empty. */
function narrow(range: Float64Array, direction: number, room: number): boolean {
  if (direction === 0) return room >= 0
  const t = room / direction
  if (direction < 0) range[0] = Math.max(range[0]!, t)
  else range[1] = Math.min(range[1]!, t)
  return range[0]! <= range[1]!
}

/**
 * Writes `color` (as ImageData's little-endian RGBA word) under each segment of `points`
 * ([x0, y0, x1, y1, …] in device pixels), `thickness` pixels across; pixels it passes twice keep
 * one colour, as a single stroked path would.
 */
export function rasterizeSegments(pixels: Uint32Array, width: number, height: number, points: Float32Array | number[], color: number, thickness = 1): void {
  // Signed words (unboxed) and positions in 16.16 fixed point: a step is two integer adds.
  const words = new Int32Array(pixels.buffer, pixels.byteOffset, pixels.length)
  const solid = color | 0
  const clipped = new Float64Array(4)
  for (let index = 0; index + 3 < points.length; index += 4) {
    if (!clipSegment(points[index]!, points[index + 1]!, points[index + 2]!, points[index + 3]!, width, height, clipped)) continue
    let x = (clipped[0]! * 65536) | 0
    let y = (clipped[1]! * 65536) | 0
    const spanX = ((clipped[2]! * 65536) | 0) - x
    const spanY = ((clipped[3]! * 65536) | 0) - y
    const steps = Math.max(1, Math.ceil(Math.max(Math.abs(spanX), Math.abs(spanY)) / 65536))
    // Rounded toward zero, so the last step never passes the segment's (clipped) end.
    const stepX = (spanX / steps) | 0
    const stepY = (spanY / steps) | 0
    if (thickness === 1) {
      for (let step = 0; step <= steps; step++) {
        words[(y >> 16) * width + (x >> 16)] = solid
        x += stepX
        y += stepY
      }
      continue
    }
    // Thicker lines widen across their minor axis.
    const across = Math.abs(stepX) >= Math.abs(stepY) ? width : 1
    for (let step = 0; step <= steps; step++) {
      const at = (y >> 16) * width + (x >> 16)
      for (let extra = 0; extra < thickness; extra++) {
        const pixel = at + extra * across
        if (pixel < words.length) words[pixel] = solid
      }
      x += stepX
      y += stepY
    }
  }
}

/** A CSS colour as the canvas normalizes it ('#rrggbb' or 'rgba(r, g, b, a)'), with `alpha` applied, as an ImageData word. */
export function pixelColor(normalized: string, alpha: number): number {
  let red = 0
  let green = 0
  let blue = 0
  let own = 1
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(normalized)
  const functional = /^rgba?\(([^)]+)\)$/i.exec(normalized)
  if (hex) [red, green, blue] = hex.slice(1).map((part) => parseInt(part, 16)) as [number, number, number]
  else if (functional) {
    const parts = functional[1]!.split(',').map((part) => Number(part.trim()))
    ;[red, green, blue] = parts as [number, number, number]
    own = parts[3] ?? 1
  }
  const opacity = Math.round(Math.max(0, Math.min(1, own * alpha)) * 255)
  return ((opacity << 24) | (blue << 16) | (green << 8) | red) >>> 0
}

/**
 * Paints filled discs of `color` (an ImageData word, its alpha the discs' opacity) over what
 * `pixels` holds, as the canvas's anti-aliased fill of arcs would: `discs` is [x, y, radius, …] in
 * device pixels, and a pixel on a disc's rim is covered by how far inside the rim its centre lies.
 * Each row is a run: its rim pixels blended, the pixels wholly inside it written as they are.
 * `smooth: false` leaves the rims out (a third of the cost or less, for frames that are gone at once).
 */
export function rasterizeDiscs(pixels: Uint32Array, width: number, height: number, discs: Float32Array | number[], color: number, smooth = true): void {
  // Signed words throughout: V8 keeps them unboxed, where a word of 2³¹ or more becomes a heap number.
  const words = new Int32Array(pixels.buffer, pixels.byteOffset, pixels.length)
  const solid = color | 0
  const rgb = color & 0xffffff
  // Alphas in 255ths, as small integers: a fractional argument to a call is boxed.
  const alpha = color >>> 24
  const opaque = alpha === 255
  for (let index = 0; index + 2 < discs.length; index += 3) {
    const centreX = discs[index]!
    const centreY = discs[index + 1]!
    // Smooth, a pixel is touched while its centre lies within radius + ½, and wholly covered within
    // radius − ½; sharp, it is wholly covered while its centre lies within the radius.
    const reach = discs[index + 2]! + (smooth ? 0.5 : 0)
    const inner = smooth ? reach - 1 : reach
    const top = Math.max(0, Math.floor(centreY - reach))
    const bottom = Math.min(height - 1, Math.ceil(centreY + reach))
    for (let y = top; y <= bottom; y++) {
      const dy = y + 0.5 - centreY
      const outer = reach * reach - dy * dy
      if (outer <= 0) continue
      const half = Math.sqrt(outer)
      const from = Math.max(0, Math.ceil(centreX - half - 0.5))
      const to = Math.min(width - 1, Math.floor(centreX + half - 0.5))
      const row = y * width
      // The wholly covered run inside [from, to]: empty (solidFrom > solidTo) when the row only grazes the disc.
      let solidFrom = to + 1
      let solidTo = to
      const innerSquared = inner * inner - dy * dy
      if (inner > 0 && innerSquared > 0) {
        const innerHalf = Math.sqrt(innerSquared)
        solidFrom = Math.max(from, Math.ceil(centreX - innerHalf - 0.5))
        solidTo = Math.min(to, Math.floor(centreX + innerHalf - 0.5))
      }
      for (let x = from; x <= to; x++) {
        if (x === solidFrom && solidTo >= solidFrom) {
          if (opaque) for (let at = row + solidFrom; at <= row + solidTo; at++) words[at] = solid
          else for (let at = row + solidFrom; at <= row + solidTo; at++) blend(words, at, rgb, alpha)
          x = solidTo
          continue
        }
        // A pixel on the rim, covered by how far inside it its centre lies.
        const dx = x + 0.5 - centreX
        const coverage = reach - Math.sqrt(dx * dx + dy * dy)
        if (coverage > 0) blend(words, row + x, rgb, coverage >= 1 ? alpha : Math.round(alpha * coverage))
      }
    }
  }
}

/** Lays colour `rgb` at `alpha` (0–255) over the unpremultiplied pixel at `at` (source over). */
function blend(words: Int32Array, at: number, rgb: number, alpha: number): void {
  const below = words[at]!
  const belowAlpha = below >>> 24
  // Opaque, or over nothing (a rim in open space): the colour at this alpha.
  if (alpha === 255 || belowAlpha === 0) {
    words[at] = (alpha << 24) | rgb
    return
  }
  // Over an opaque pixel (another node): a mix of the two, two channels at a time, in 256ths.
  if (belowAlpha === 255) {
    const mine = alpha + (alpha >>> 7)
    const theirs = 256 - mine
    const redBlue = (((rgb & 0xff00ff) * mine + (below & 0xff00ff) * theirs) >>> 8) & 0xff00ff
    const green = (((rgb & 0xff00) * mine + (below & 0xff00) * theirs) >>> 8) & 0xff00
    words[at] = (255 << 24) | redBlue | green
    return
  }
  const source = alpha / 255
  const rest = (belowAlpha / 255) * (1 - source)
  const total = source + rest
  const red = ((rgb & 0xff) * source + (below & 0xff) * rest) / total
  const green = (((rgb >>> 8) & 0xff) * source + ((below >>> 8) & 0xff) * rest) / total
  const blue = (((rgb >>> 16) & 0xff) * source + ((below >>> 16) & 0xff) * rest) / total
  words[at] = (Math.round(total * 255) << 24) | (Math.round(blue) << 16) | (Math.round(green) << 8) | Math.round(red)
}
