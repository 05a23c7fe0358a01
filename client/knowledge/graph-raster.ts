// Thousands of edges in one stroke cost a software-rendered canvas ~2× what writing their pixels
// from script does (measured in headless Chromium: 15–28 ms against 7–12 ms at 10,852 edges), so
// large graphs get their quiet edges as straight pixel runs, clipped to the canvas.

/** Clips a segment in device pixels to [0, width) × [0, height) into `out` (x0, y0, x1, y1); false when it lies outside. */
export function clipSegment(x0: number, y0: number, x1: number, y1: number, width: number, height: number, out: Float64Array): boolean {
  // Liang–Barsky: the part of the segment, as t in [0, 1], inside each of the four edges.
  const dx = x1 - x0
  const dy = y1 - y0
  let from = 0
  let to = 1
  const limit = (direction: number, room: number): boolean => {
    if (direction === 0) return room >= 0
    const t = room / direction
    if (direction < 0) from = Math.max(from, t)
    else to = Math.min(to, t)
    return from <= to
  }
  if (!limit(-dx, x0) || !limit(dx, width - 1 - x0) || !limit(-dy, y0) || !limit(dy, height - 1 - y0)) return false
  out[0] = x0 + dx * from
  out[1] = y0 + dy * from
  out[2] = x0 + dx * to
  out[3] = y0 + dy * to
  return true
}

/**
 * Writes `color` (as ImageData's little-endian RGBA word) under each segment of `points`
 * ([x0, y0, x1, y1, …] in device pixels), `thickness` pixels across; pixels it passes twice keep
 * one colour, as a single stroked path would.
 */
export function rasterizeSegments(pixels: Uint32Array, width: number, height: number, points: Float32Array | number[], color: number, thickness = 1): void {
  const clipped = new Float64Array(4)
  for (let index = 0; index + 3 < points.length; index += 4) {
    if (!clipSegment(points[index]!, points[index + 1]!, points[index + 2]!, points[index + 3]!, width, height, clipped)) continue
    let x = clipped[0]!
    let y = clipped[1]!
    const endX = clipped[2]!
    const endY = clipped[3]!
    const steps = Math.max(1, Math.ceil(Math.max(Math.abs(endX - x), Math.abs(endY - y))))
    const stepX = (endX - x) / steps
    const stepY = (endY - y) / steps
    // Thicker lines widen across their minor axis.
    const across = Math.abs(stepX) >= Math.abs(stepY) ? width : 1
    for (let step = 0; step <= steps; step++) {
      const at = (y | 0) * width + (x | 0)
      pixels[at] = color
      for (let extra = 1; extra < thickness; extra++) {
        const pixel = at + extra * across
        if (pixel < pixels.length) pixels[pixel] = color
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
