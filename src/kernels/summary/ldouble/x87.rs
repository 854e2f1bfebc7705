//! Extended precision on the x87 FPU itself: each value is kept in the
//! 10 bytes `fstp tbyte` stores, and every operation loads its operands,
//! lets the FPU round, and stores the result. The FPU runs at 64-bit
//! precision with round-to-nearest, the x86-64 System V default that R's
//! `long double` arithmetic also relies on.
//!
//! Every block marks all eight x87 registers clobbered, so the x87 stack is
//! empty on entry, and leaves it empty on exit, as Rust's inline assembly
//! requires.

// The only unsafe code in flowcast: Rust has no 80-bit float type.
#![allow(unsafe_code)]

use std::arch::asm;

/// An x87 extended value as the FPU stores it: the 64-bit significand,
/// then the sign and the 15-bit exponent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LongDouble([u8; 10]);

impl Default for LongDouble {
    fn default() -> Self {
        LongDouble::ZERO
    }
}

/// Runs `$code` with operands read (`in`) and operands the code steps
/// through (`walk`, changed by it), all x87 registers clobbered.
macro_rules! x87 {
    ($($code:literal),+; $($name:ident = $value:expr),+ $(; walk $wname:ident = $wvalue:expr)*) => {
        // SAFETY: the code only reads and writes the 8- and 10-byte
        // operands behind the pointers given, which are valid for it.
        unsafe {
            asm!(
                $($code),+,
                $($name = in(reg) $value),+,
                $($wname = inout(reg) $wvalue => _,)*
                out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                options(nostack),
            )
        }
    };
}

impl LongDouble {
    pub const ZERO: LongDouble = LongDouble([0; 10]);

    pub fn from_f64(x: f64) -> LongDouble {
        let mut out = LongDouble::ZERO;
        x87!("fld qword ptr [{x}]", "fstp tbyte ptr [{o}]";
            x = &x, o = out.0.as_mut_ptr());
        out
    }

    // Negation, subtraction and products: cov.c's pairwise deviations and
    // products (the tests check them against the emulation).
    pub fn neg(self) -> LongDouble {
        let mut out = self;
        out.0[9] ^= 0x80;
        out
    }

    pub fn add(self, other: LongDouble) -> LongDouble {
        let mut out = LongDouble::ZERO;
        x87!("fld tbyte ptr [{a}]", "fld tbyte ptr [{b}]", "faddp st(1), st(0)",
            "fstp tbyte ptr [{o}]";
            a = self.0.as_ptr(), b = other.0.as_ptr(), o = out.0.as_mut_ptr());
        out
    }

    /// `self + (−other)`, which IEEE defines `self − other` to be (and
    /// which avoids the operand order of `fsubp`, reversed between
    /// assembler syntaxes).
    pub fn sub(self, other: LongDouble) -> LongDouble {
        self.add(other.neg())
    }

    pub fn mul(self, other: LongDouble) -> LongDouble {
        let mut out = LongDouble::ZERO;
        x87!("fld tbyte ptr [{a}]", "fld tbyte ptr [{b}]", "fmulp st(1), st(0)",
            "fstp tbyte ptr [{o}]";
            a = self.0.as_ptr(), b = other.0.as_ptr(), o = out.0.as_mut_ptr());
        out
    }

    /// `self / n` for a count `n` (R divides sums by lengths). The count is
    /// exact as a double, so dividing by it is dividing by the integer.
    pub fn div_count(self, n: usize) -> LongDouble {
        let d = n as f64;
        let mut out = LongDouble::ZERO;
        x87!("fld tbyte ptr [{a}]", "fdiv qword ptr [{d}]", "fstp tbyte ptr [{o}]";
            a = self.0.as_ptr(), d = &d, o = out.0.as_mut_ptr());
        out
    }

    pub fn div(self, other: LongDouble) -> LongDouble {
        let mut out = LongDouble::ZERO;
        // fdiv st(0), st(1): the dividend loaded last, so st(0) / st(1).
        x87!("fld tbyte ptr [{b}]", "fld tbyte ptr [{a}]", "fdiv st(0), st(1)",
            "fstp tbyte ptr [{o}]", "fstp st(0)";
            a = self.0.as_ptr(), b = other.0.as_ptr(), o = out.0.as_mut_ptr());
        out
    }

    /// `sqrtl`: the FPU's square root, rounded to 64 bits.
    pub fn sqrt(self) -> LongDouble {
        let mut out = LongDouble::ZERO;
        x87!("fld tbyte ptr [{a}]", "fsqrt", "fstp tbyte ptr [{o}]";
            a = self.0.as_ptr(), o = out.0.as_mut_ptr());
        out
    }

    /// glibc's `logl` on x86-64 (e_logl.S): `fyl2xp1` on x - 1 when
    /// |x - 1| < 0.29, where that keeps the digits of a log near 0,
    /// `fyl2x` on x otherwise; both scaled by ln 2.
    pub fn ln(self) -> LongDouble {
        let mut out = LongDouble::ZERO;
        let one = 1.0f64;
        let limit = 0.29f64;
        x87!("fldln2", "fld tbyte ptr [{a}]", "fld st(0)", "fsub qword ptr [{one}]",
            "fld st(0)", "fabs", "fld qword ptr [{lim}]", "fcomip st(0), st(1)",
            "fstp st(0)", "ja 2f", "fstp st(0)", "fyl2x", "jmp 3f",
            "2:", "fstp st(1)", "fyl2xp1", "3:", "fstp tbyte ptr [{o}]";
            a = self.0.as_ptr(), one = &one, lim = &limit, o = out.0.as_mut_ptr());
        out
    }

    /// glibc's `log1pl` on x86-64 (s_log1pl.S): `fyl2xp1` on x when
    /// |x| < 0.29, `fyl2x` on 1 + x otherwise.
    pub fn ln_1p(self) -> LongDouble {
        let mut out = LongDouble::ZERO;
        let limit = 0.29f64;
        x87!("fldln2", "fld tbyte ptr [{a}]", "fld st(0)", "fabs", "fld qword ptr [{lim}]",
            "fcomip st(0), st(1)", "fstp st(0)", "ja 2f", "fld1", "fadd st(0), st(1)",
            "fstp st(1)", "fyl2x", "jmp 3f", "2:", "fyl2xp1", "3:", "fstp tbyte ptr [{o}]";
            a = self.0.as_ptr(), lim = &limit, o = out.0.as_mut_ptr());
        out
    }

    /// `expl` for a finite argument: 2^(x·log2 e) split into its integer
    /// part (`fscale`) and fraction (`f2xm1`), all on the FPU. glibc's
    /// `expl` carries x·log2 e to more bits; the two agree once rounded
    /// to a double but for a rare tie.
    pub fn exp(self) -> LongDouble {
        let x = self.to_f64();
        if !x.is_finite() {
            return LongDouble::from_f64(x.exp());
        }
        let mut out = LongDouble::ZERO;
        x87!("fld tbyte ptr [{a}]", "fldl2e", "fmul st(0), st(1)", "fld st(0)", "frndint",
            "fxch st(1)", "fsub st(0), st(1)", "f2xm1", "fld1", "fadd st(0), st(1)",
            "fstp st(1)", "fscale", "fstp tbyte ptr [{o}]", "fstp st(0)", "fstp st(0)";
            a = self.0.as_ptr(), o = out.0.as_mut_ptr());
        out
    }

    /// Rounds to the nearest double, as a C cast `(double) s` does.
    pub fn to_f64(self) -> f64 {
        let mut out = 0.0f64;
        x87!("fld tbyte ptr [{a}]", "fstp qword ptr [{o}]";
            a = self.0.as_ptr(), o = &mut out);
        out
    }

    pub fn is_finite_f64(self) -> bool {
        self.to_f64().is_finite()
    }
}

/// `Σ x`, in order, in one register: as fast as the FPU adds.
pub fn sum(x: &[f64]) -> LongDouble {
    sum_strided(x, 1)
}

/// `Σ x`, in order, each value loaded (`fld`) before it is added: see
/// [`super::rsum`].
pub fn rsum(x: &[f64]) -> LongDouble {
    let mut out = LongDouble::ZERO;
    x87!(
        "fldz",
        "test {n}, {n}",
        "jz 3f",
        "2:",
        "fld qword ptr [{p}]",
        "faddp st(1), st(0)",
        "add {p}, 8",
        "dec {n}",
        "jnz 2b",
        "3:",
        "fstp tbyte ptr [{o}]";
        o = out.0.as_mut_ptr();
        walk p = x.as_ptr();
        walk n = x.len()
    );
    out
}

/// `Σ x[k·stride]`, in order: a row of a column-major matrix.
pub fn sum_strided(x: &[f64], stride: usize) -> LongDouble {
    assert!(stride > 0);
    let mut out = LongDouble::ZERO;
    x87!(
        "fldz",
        "test {n}, {n}",
        "jz 3f",
        "2:",
        "fadd qword ptr [{p}]",
        "add {p}, {step}",
        "dec {n}",
        "jnz 2b",
        "3:",
        "fstp tbyte ptr [{o}]";
        o = out.0.as_mut_ptr(), step = stride * 8;
        walk p = x.as_ptr();
        walk n = x.len().div_ceil(stride)
    );
    out
}

/// `sums[i] += col[i]` for every i, each sum loaded, added to and stored
/// back in extended precision: R's row sums, column after column.
pub fn add_column(sums: &mut [LongDouble], col: &[f64]) {
    assert_eq!(sums.len(), col.len());
    if col.is_empty() {
        return;
    }
    x87!(
        "2:",
        "fld tbyte ptr [{s}]",
        "fadd qword ptr [{p}]",
        "fstp tbyte ptr [{s}]",
        "add {p}, 8",
        "add {s}, 10",
        "cmp {p}, {end}",
        "jne 2b";
        end = col.as_ptr_range().end;
        walk p = col.as_ptr();
        walk s = sums.as_mut_ptr().cast::<u8>()
    );
}

/// The running sums of `x`, the sum kept in a register and each stored
/// rounded to a double (`fst qword` rounds to nearest, as `to_f64`).
pub fn cumsum(x: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; x.len()];
    if x.is_empty() {
        return out;
    }
    x87!(
        "fldz",
        "2:",
        "fadd qword ptr [{p}]",
        "fst qword ptr [{o}]",
        "add {p}, 8",
        "add {o}, 8",
        "cmp {p}, {end}",
        "jne 2b",
        "fstp st(0)";
        end = x.as_ptr_range().end;
        walk p = x.as_ptr();
        walk o = out.as_mut_ptr()
    );
    out
}

/// The running products of `x`, as [`cumsum`]: the product stays in a
/// register, so its exponent range is the FPU's, not a double's.
pub fn cumprod(x: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; x.len()];
    if x.is_empty() {
        return out;
    }
    x87!(
        "fld1",
        "2:",
        "fmul qword ptr [{p}]",
        "fst qword ptr [{o}]",
        "add {p}, 8",
        "add {o}, 8",
        "cmp {p}, {end}",
        "jne 2b",
        "fstp st(0)";
        end = x.as_ptr_range().end;
        walk p = x.as_ptr();
        walk o = out.as_mut_ptr()
    );
    out
}

/// `Σ (x − s)`, in order: `−s` stays in a register beside the sum.
pub fn sum_deviations(x: &[f64], s: LongDouble) -> LongDouble {
    let mut out = LongDouble::ZERO;
    x87!(
        "fld tbyte ptr [{s}]",
        "fchs",
        "fldz",
        "test {n}, {n}",
        "jz 3f",
        "2:",
        "fld qword ptr [{p}]",
        "fadd st(0), st(2)",
        "faddp st(1), st(0)",
        "add {p}, 8",
        "dec {n}",
        "jnz 2b",
        "3:",
        "fstp tbyte ptr [{o}]",
        "fstp st(0)";
        s = s.0.as_ptr(), o = out.0.as_mut_ptr();
        walk p = x.as_ptr();
        walk n = x.len()
    );
    out
}

/// `Σ (x − xm)(y − ym)`, in order, the negated means kept in registers.
pub fn sum_products(x: &[f64], xm: LongDouble, y: &[f64], ym: LongDouble) -> LongDouble {
    assert_eq!(x.len(), y.len());
    let mut out = LongDouble::ZERO;
    x87!(
        "fld tbyte ptr [{ym}]",
        "fchs",
        "fld tbyte ptr [{xm}]",
        "fchs",
        "fldz",
        "test {n}, {n}",
        "jz 3f",
        "2:",
        "fld qword ptr [{p}]",
        "fadd st(0), st(2)",
        "fld qword ptr [{q}]",
        "fadd st(0), st(4)",
        "fmulp st(1), st(0)",
        "faddp st(1), st(0)",
        "add {p}, 8",
        "add {q}, 8",
        "dec {n}",
        "jnz 2b",
        "3:",
        "fstp tbyte ptr [{o}]",
        "fstp st(0)",
        "fstp st(0)";
        xm = xm.0.as_ptr(), ym = ym.0.as_ptr(), o = out.0.as_mut_ptr();
        walk p = x.as_ptr();
        walk q = y.as_ptr();
        walk n = x.len()
    );
    out
}

/// `(Σ x, Σ y)`, each in order, in two registers: two sums whose additions
/// overlap, where one after the other would each wait on the FPU's adder.
pub fn sum2(x: &[f64], y: &[f64]) -> (LongDouble, LongDouble) {
    assert_eq!(x.len(), y.len());
    let (mut sx, mut sy) = (LongDouble::ZERO, LongDouble::ZERO);
    // st(0) = Σy, st(1) = Σx.
    x87!(
        "fldz",
        "fldz",
        "test {n}, {n}",
        "jz 3f",
        "2:",
        "fadd qword ptr [{q}]",
        "fld qword ptr [{p}]",
        "faddp st(2), st(0)",
        "add {p}, 8",
        "add {q}, 8",
        "dec {n}",
        "jnz 2b",
        "3:",
        "fstp tbyte ptr [{oy}]",
        "fstp tbyte ptr [{ox}]";
        ox = sx.0.as_mut_ptr(), oy = sy.0.as_mut_ptr();
        walk p = x.as_ptr();
        walk q = y.as_ptr();
        walk n = x.len()
    );
    (sx, sy)
}

/// `(Σ (x − s), Σ (y − t))`, each in order, in one pass.
pub fn sum_deviations2(
    x: &[f64],
    s: LongDouble,
    y: &[f64],
    t: LongDouble,
) -> (LongDouble, LongDouble) {
    assert_eq!(x.len(), y.len());
    let (mut dx, mut dy) = (LongDouble::ZERO, LongDouble::ZERO);
    // st(0) = Σ(y − t), st(1) = Σ(x − s), st(2) = −s, st(3) = −t.
    x87!(
        "fld tbyte ptr [{t}]",
        "fchs",
        "fld tbyte ptr [{s}]",
        "fchs",
        "fldz",
        "fldz",
        "test {n}, {n}",
        "jz 3f",
        "2:",
        "fld qword ptr [{p}]",
        "fadd st(0), st(3)",
        "faddp st(2), st(0)",
        "fld qword ptr [{q}]",
        "fadd st(0), st(4)",
        "faddp st(1), st(0)",
        "add {p}, 8",
        "add {q}, 8",
        "dec {n}",
        "jnz 2b",
        "3:",
        "fstp tbyte ptr [{oy}]",
        "fstp tbyte ptr [{ox}]",
        "fstp st(0)",
        "fstp st(0)";
        s = s.0.as_ptr(), t = t.0.as_ptr(), ox = dx.0.as_mut_ptr(), oy = dy.0.as_mut_ptr();
        walk p = x.as_ptr();
        walk q = y.as_ptr();
        walk n = x.len()
    );
    (dx, dy)
}

/// `(Σ dx·dy, Σ dx·dx, Σ dy·dy)` with `dx = x − xm`, `dy = y − ym`, each in
/// order, in one pass: a correlation's three sums, as
/// [`sum_products`] would give them one at a time.
pub fn sum_products3(
    x: &[f64],
    xm: LongDouble,
    y: &[f64],
    ym: LongDouble,
) -> (LongDouble, LongDouble, LongDouble) {
    assert_eq!(x.len(), y.len());
    let (mut sxy, mut sxx, mut syy) = (LongDouble::ZERO, LongDouble::ZERO, LongDouble::ZERO);
    // st(0) = Σdxdy, st(1) = Σdx², st(2) = Σdy², st(3) = −xm, st(4) = −ym;
    // inside the loop dx and dy sit above them (eight registers at most).
    x87!(
        "fld tbyte ptr [{ym}]",
        "fchs",
        "fld tbyte ptr [{xm}]",
        "fchs",
        "fldz",
        "fldz",
        "fldz",
        "test {n}, {n}",
        "jz 3f",
        "2:",
        "fld qword ptr [{p}]",
        "fadd st(0), st(4)",
        "fld qword ptr [{q}]",
        "fadd st(0), st(6)",
        "fld st(0)",
        "fmul st(0), st(0)",
        "faddp st(5), st(0)",
        "fmul st(0), st(1)",
        "faddp st(2), st(0)",
        "fmul st(0), st(0)",
        "faddp st(2), st(0)",
        "add {p}, 8",
        "add {q}, 8",
        "dec {n}",
        "jnz 2b",
        "3:",
        "fstp tbyte ptr [{oxy}]",
        "fstp tbyte ptr [{oxx}]",
        "fstp tbyte ptr [{oyy}]",
        "fstp st(0)",
        "fstp st(0)";
        xm = xm.0.as_ptr(), ym = ym.0.as_ptr(),
        oxy = sxy.0.as_mut_ptr(), oxx = sxx.0.as_mut_ptr(), oyy = syy.0.as_mut_ptr();
        walk p = x.as_ptr();
        walk q = y.as_ptr();
        walk n = x.len()
    );
    (sxy, sxx, syy)
}

/// `(Σ dx·dy, Σ dx·dz)`, each in order, in one pass: one column's cross
/// products with two others, the two sums' additions overlapping.
pub fn sum_products2(
    x: &[f64],
    xm: LongDouble,
    y: &[f64],
    ym: LongDouble,
    z: &[f64],
    zm: LongDouble,
) -> (LongDouble, LongDouble) {
    assert!(x.len() == y.len() && x.len() == z.len());
    let (mut sy, mut sz) = (LongDouble::ZERO, LongDouble::ZERO);
    // st(0) = Σdxdy, st(1) = Σdxdz, st(2) = −xm, st(3) = −ym, st(4) = −zm.
    x87!(
        "fld tbyte ptr [{zm}]",
        "fchs",
        "fld tbyte ptr [{ym}]",
        "fchs",
        "fld tbyte ptr [{xm}]",
        "fchs",
        "fldz",
        "fldz",
        "test {n}, {n}",
        "jz 3f",
        "2:",
        "fld qword ptr [{p}]",
        "fadd st(0), st(3)",
        "fld qword ptr [{q}]",
        "fadd st(0), st(5)",
        "fmul st(0), st(1)",
        "faddp st(2), st(0)",
        "fld qword ptr [{r}]",
        "fadd st(0), st(6)",
        "fmulp st(1), st(0)",
        "faddp st(2), st(0)",
        "add {p}, 8",
        "add {q}, 8",
        "add {r}, 8",
        "dec {n}",
        "jnz 2b",
        "3:",
        "fstp tbyte ptr [{oy}]",
        "fstp tbyte ptr [{oz}]",
        "fstp st(0)",
        "fstp st(0)",
        "fstp st(0)";
        xm = xm.0.as_ptr(), ym = ym.0.as_ptr(), zm = zm.0.as_ptr(),
        oy = sy.0.as_mut_ptr(), oz = sz.0.as_mut_ptr();
        walk p = x.as_ptr();
        walk q = y.as_ptr();
        walk r = z.as_ptr();
        walk n = x.len()
    );
    (sy, sz)
}
