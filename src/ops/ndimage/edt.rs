//! The host kernel of `distance_transform_edt`: SciPy's
//! `NI_EuclideanFeatureTransform` (Maurer et al.'s Voronoi transform, one
//! pass per axis) in plain Rust on CPU arrays.
//!
//! Pass `d` runs along axis `d` on every line of the array, the sites being
//! the elements that have found a background element so far, each with its
//! squared distance `h` over the axes before `d`. The lower envelope is built
//! with SciPy's removal test and read back with SciPy's scan (the earlier
//! site on ties), both evaluated in SciPy's floating-point order, so the
//! features, and hence the indices, are SciPy's bit for bit; the squared
//! distance of the chosen site, `h[k] + ((k - i) * sampling[d])**2`, is the
//! sum SciPy forms from the features in the same order, so the distances
//! are too.
//!
//! Every pass reads its input as an `(n, m)` matrix (the axis it works on
//! first) and writes its output transposed, `(m, n)`: the axes rotate by one
//! each pass, so the pass on axis `d` always finds that axis first, and after
//! the last pass the array is back in its own order. The lines of a pass are
//! its output's rows, so threads take contiguous blocks of them; the input is
//! gathered a block of columns at a time (contiguous reads).

/// How many lines are gathered together (contiguous reads of the input).
const BLOCK: usize = 16;

/// The feature transform of a C-order array of `shape` whose background
/// elements are `background` (at least one): the squared distance of every
/// element to its nearest background element and, with `indices`, that
/// element's coordinates (one C-order plane per axis, int32 as SciPy's).
pub(crate) fn feature_transform(
    background: &[bool],
    shape: &[usize],
    sampling: &[f64],
    indices: bool,
    threads: usize,
) -> (Vec<f64>, Vec<Vec<i32>>) {
    let total: usize = shape.iter().product();
    // the first pass reads `background` itself (0 or infinity): `h` is only written
    let mut h: Vec<f64> = Vec::new();
    let mut h_out: Vec<f64> = vec![0.0; total];
    let mut planes: Vec<Vec<i32>> = Vec::new();
    for (d, (&n, &s)) in shape.iter().zip(sampling).enumerate() {
        if total == 0 || n == 0 {
            break;
        }
        let m = total / n;
        let mut planes_out: Vec<Vec<i32>> = if indices { vec![vec![0i32; total]; d + 1] } else { Vec::new() };
        let source = if d == 0 { Source::Background(background) } else { Source::Squared(&h) };
        let input = PassInput { source, planes: &planes, n, m, s };
        let threads = threads.clamp(1, m.div_ceil(BLOCK).max(1));
        if threads == 1 {
            let mut outs: Vec<&mut [i32]> = planes_out.iter_mut().map(|p| p.as_mut_slice()).collect();
            run_lines(&input, 0, &mut h_out, &mut outs);
        } else {
            let rows = m.div_ceil(threads);
            // every thread's share of the output: rows [start, start + rows)
            let mut shares: Vec<Share<'_>> = Vec::with_capacity(threads);
            let mut h_rest: &mut [f64] = &mut h_out;
            let mut p_rest: Vec<&mut [i32]> = planes_out.iter_mut().map(|p| p.as_mut_slice()).collect();
            let mut start = 0;
            while start < m {
                let take = rows.min(m - start) * n;
                let (h_here, h_next) = std::mem::take(&mut h_rest).split_at_mut(take);
                h_rest = h_next;
                let mut p_here = Vec::with_capacity(p_rest.len());
                for p in p_rest.iter_mut() {
                    let (a, b) = std::mem::take(p).split_at_mut(take);
                    p_here.push(a);
                    *p = b;
                }
                shares.push((start, h_here, p_here));
                start += rows;
            }
            let input = &input;
            std::thread::scope(|scope| {
                let mut shares = shares.into_iter();
                let first = shares.next();
                for (start, h_here, mut p_here) in shares {
                    scope.spawn(move || run_lines(input, start, h_here, &mut p_here));
                }
                if let Some((start, h_here, mut p_here)) = first {
                    run_lines(input, start, h_here, &mut p_here);
                }
            });
        }
        if h.len() != total {
            h = vec![0.0; total];
        }
        std::mem::swap(&mut h, &mut h_out);
        planes = planes_out;
    }
    if h.len() != total {
        // no pass ran (an empty array)
        h = h_out;
    }
    (h, planes)
}

/// A thread's share of a pass's output: its first row, and its rows of the
/// squared distances and of every feature plane.
type Share<'a> = (usize, &'a mut [f64], Vec<&'a mut [i32]>);

/// Where a pass reads its squared distances: the first pass from the
/// background flags (0 or infinity), the others from the pass before.
#[derive(Clone, Copy)]
enum Source<'a> {
    Background(&'a [bool]),
    Squared(&'a [f64]),
}

/// What a pass reads: the `(n, m)` squared distances and feature planes
/// (those of the axes already done), and the sampling along the pass's axis.
struct PassInput<'a> {
    source: Source<'a>,
    planes: &'a [Vec<i32>],
    n: usize,
    m: usize,
    s: f64,
}

/// The pass's output rows (input columns) from `start` on, as many as
/// `h_out` holds (`n` each): their squared distances and feature planes (the
/// input's planes carried along, then this axis's own).
fn run_lines(input: &PassInput<'_>, start: usize, h_out: &mut [f64], planes_out: &mut [&mut [i32]]) {
    let (n, m) = (input.n, input.m);
    let rows = h_out.len() / n;
    // the gathered lines, a few elements apart so that they do not share cache sets
    let stride = n + 8;
    let mut lines = vec![0.0f64; BLOCK.min(rows) * stride];
    let mut stack: Vec<usize> = vec![0; n];
    let mut chosen: Vec<usize> = vec![0; n];
    let mut row = 0;
    while row < rows {
        let width = BLOCK.min(rows - row);
        let col0 = start + row;
        match input.source {
            Source::Background(bg) => {
                for i in 0..n {
                    for (b, &v) in bg[i * m + col0..i * m + col0 + width].iter().enumerate() {
                        lines[b * stride + i] = if v { 0.0 } else { f64::INFINITY };
                    }
                }
            }
            Source::Squared(h) => {
                for i in 0..n {
                    for (b, &v) in h[i * m + col0..i * m + col0 + width].iter().enumerate() {
                        lines[b * stride + i] = v;
                    }
                }
            }
        }
        for b in 0..width {
            let col = col0 + b;
            let line = &lines[b * stride..b * stride + n];
            let out = &mut h_out[(row + b) * n..(row + b + 1) * n];
            let found = voronoi(line, input.s, &mut stack, &mut chosen, out);
            let Some((own, carried_out)) = planes_out.split_last_mut() else { continue };
            let own = &mut own[(row + b) * n..(row + b + 1) * n];
            for (i, (o, &k)) in own.iter_mut().zip(&chosen).enumerate() {
                // SciPy's features are int32; an axis is shorter than 2**31 here
                *o = (if found { k } else { i }) as i32;
            }
            for (src, dst) in input.planes.iter().zip(carried_out.iter_mut()) {
                let dst = &mut dst[(row + b) * n..(row + b + 1) * n];
                for (i, (o, &k)) in dst.iter_mut().zip(&chosen).enumerate() {
                    let k = if found { k } else { i };
                    *o = src[k * m + col];
                }
            }
        }
        row += width;
    }
}

/// SciPy's `_VoronoiFT` on one line: `h` the squared distances so far
/// (infinite: no background found yet, not a site), `s` the spacing along
/// the line, `stack` room for a site per element. Writes every element's new
/// squared distance to `out` and its chosen site to `chosen`; false (and
/// `out` = `h`) where the line has no site.
fn voronoi(h: &[f64], s: f64, stack: &mut [usize], chosen: &mut [usize], out: &mut [f64]) -> bool {
    // positions as float: exact, and a signed conversion is one instruction
    let at = |i: usize| i as i64 as f64;
    let mut top = 0; // the stack's length
    for (i, &wr) in h.iter().enumerate() {
        if wr == f64::INFINITY {
            continue;
        }
        let fd = at(i);
        while top >= 2 {
            let idx1 = stack[top - 1];
            let idx2 = stack[top - 2];
            let f1 = at(idx1);
            let a = (f1 - at(idx2)) * s;
            let b = (fd - f1) * s;
            let c = a + b;
            let (ur, vr) = (h[idx2], h[idx1]);
            if c * vr - b * ur - a * wr - a * b * c <= 0.0 {
                break;
            }
            top -= 1;
        }
        stack[top] = i;
        top += 1;
    }
    if top == 0 {
        out.copy_from_slice(h);
        return false;
    }
    let stack = &stack[..top];
    let last = top - 1;
    let mut l = 0;
    let dist = |k: usize, i: f64| {
        let t = (at(k) - i) * s;
        h[k] + t * t
    };
    for (i, (o, c)) in out.iter_mut().zip(chosen.iter_mut()).enumerate() {
        let fi = at(i);
        let mut d1 = dist(stack[l], fi);
        while l < last {
            let d2 = dist(stack[l + 1], fi);
            if d1 <= d2 {
                break;
            }
            d1 = d2;
            l += 1;
        }
        *o = d1;
        *c = stack[l];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The brute-force squared distances (no ties checked).
    fn brute(background: &[bool], shape: &[usize], sampling: &[f64]) -> Vec<f64> {
        let total: usize = shape.iter().product();
        let coords = |mut p: usize| {
            let mut c = vec![0usize; shape.len()];
            for d in (0..shape.len()).rev() {
                c[d] = p % shape[d];
                p /= shape[d];
            }
            c
        };
        (0..total)
            .map(|p| {
                let cp = coords(p);
                (0..total)
                    .filter(|&q| background[q])
                    .map(|q| {
                        let cq = coords(q);
                        cp.iter().zip(&cq).zip(sampling).map(|((&a, &b), &s)| ((a as f64 - b as f64) * s).powi(2)).sum()
                    })
                    .fold(f64::INFINITY, f64::min)
            })
            .collect()
    }

    #[test]
    fn matches_brute_force_serial_and_threaded() {
        let mut state = 12345u64;
        for shape in [vec![7usize], vec![9, 40], vec![33, 5], vec![4, 6, 5]] {
            let total: usize = shape.iter().product();
            let background: Vec<bool> = (0..total)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (state >> 33) % 7 == 0
                })
                .collect();
            if !background.iter().any(|&b| b) {
                continue;
            }
            let sampling: Vec<f64> = [1.5, 0.7, 2.25][..shape.len()].to_vec();
            let want = brute(&background, &shape, &sampling);
            let (one, p1) = feature_transform(&background, &shape, &sampling, true, 1);
            let (two, p2) = feature_transform(&background, &shape, &sampling, true, 3);
            assert_eq!(one, two);
            assert_eq!(p1, p2);
            for (g, w) in one.iter().zip(&want) {
                assert!((g - w).abs() <= 1e-9 * w.max(1.0), "{g} vs {w}");
            }
        }
    }
}
