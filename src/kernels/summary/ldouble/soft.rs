//! x87 extended precision in software, for targets without an x87 FPU and
//! as the reference the hardware path is tested against. The exponent range
//! is unbounded here; sums of doubles never approach the real format's
//! limits.

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LongDouble(Repr);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Repr {
    /// `mant * 2^exp`; `mant` has its top bit set, or is 0 for a (signed) zero.
    Finite { neg: bool, mant: u64, exp: i64 },
    /// NaN or an infinity, with IEEE semantics.
    Special(f64),
}

impl Default for LongDouble {
    fn default() -> Self {
        LongDouble::ZERO
    }
}

impl LongDouble {
    pub const ZERO: LongDouble = LongDouble(Repr::Finite {
        neg: false,
        mant: 0,
        exp: 0,
    });

    pub fn from_f64(x: f64) -> LongDouble {
        if !x.is_finite() {
            return LongDouble(Repr::Special(x));
        }
        let neg = x.is_sign_negative();
        if x == 0.0 {
            return LongDouble(Repr::Finite {
                neg,
                mant: 0,
                exp: 0,
            });
        }
        let bits = x.to_bits();
        let biased = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1u64 << 52) - 1);
        let (m, e) = if biased == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), biased - 1075)
        };
        let shift = m.leading_zeros();
        LongDouble(Repr::Finite {
            neg,
            mant: m << shift,
            exp: e - i64::from(shift),
        })
    }

    pub fn neg(self) -> LongDouble {
        match self.0 {
            Repr::Finite { neg, mant, exp } => LongDouble(Repr::Finite {
                neg: !neg,
                mant,
                exp,
            }),
            Repr::Special(x) => LongDouble(Repr::Special(-x)),
        }
    }

    pub fn add(self, other: LongDouble) -> LongDouble {
        let (a, b) = match (self.0, other.0) {
            (Repr::Special(x), Repr::Special(y)) => {
                return LongDouble(Repr::Special(special_add(x, y)))
            }
            (Repr::Special(x), _) | (_, Repr::Special(x)) => {
                return LongDouble(Repr::Special(x + 0.0))
            }
            (a, b) => (a, b),
        };
        let (
            Repr::Finite {
                neg: an,
                mant: am,
                exp: ae,
            },
            Repr::Finite {
                neg: bn,
                mant: bm,
                exp: be,
            },
        ) = (a, b)
        else {
            unreachable!("special values handled above")
        };
        if am == 0 && bm == 0 {
            return LongDouble(Repr::Finite {
                neg: an && bn,
                mant: 0,
                exp: 0,
            });
        }
        if bm == 0 {
            return self;
        }
        if am == 0 {
            return other;
        }
        // Order by magnitude: x is the larger.
        let ((xn, xm, xe), (yn, ym, ye)) = if (ae, am) >= (be, bm) {
            ((an, am, ae), (bn, bm, be))
        } else {
            ((bn, bm, be), (an, am, ae))
        };
        // 62 guard bits below each significand; y's low bits are lost only
        // when it is shifted by more than 62, and then a sticky bit stands in.
        let big = u128::from(xm) << 62;
        let full = u128::from(ym) << 62;
        let d = (xe - ye) as u64;
        let (small, sticky) = if d >= 126 {
            (0, true)
        } else {
            let lost = if d == 0 { 0 } else { full & ((1u128 << d) - 1) };
            (full >> d, lost != 0)
        };
        let r = if xn == yn {
            big + small
        } else {
            big - small - u128::from(sticky)
        };
        if r == 0 {
            return LongDouble::ZERO;
        }
        let r = r | u128::from(sticky);
        let (mant, exp) = round_bits(r, xe - 62, 64);
        LongDouble(Repr::Finite {
            neg: xn,
            mant: mant as u64,
            exp,
        })
    }

    pub fn sub(self, other: LongDouble) -> LongDouble {
        self.add(other.neg())
    }

    pub fn mul(self, other: LongDouble) -> LongDouble {
        match (self.0, other.0) {
            (
                Repr::Finite {
                    neg: an,
                    mant: am,
                    exp: ae,
                },
                Repr::Finite {
                    neg: bn,
                    mant: bm,
                    exp: be,
                },
            ) => {
                let neg = an != bn;
                if am == 0 || bm == 0 {
                    return LongDouble(Repr::Finite {
                        neg,
                        mant: 0,
                        exp: 0,
                    });
                }
                let (m, e) = round_bits(u128::from(am) * u128::from(bm), ae + be, 64);
                LongDouble(Repr::Finite {
                    neg,
                    mant: m as u64,
                    exp: e,
                })
            }
            _ => LongDouble(Repr::Special(self.to_f64() * other.to_f64())),
        }
    }

    /// `self / n` for a count `n` (R divides sums by lengths).
    pub fn div_count(self, n: usize) -> LongDouble {
        match self.0 {
            Repr::Special(x) => LongDouble(Repr::Special(x / n as f64)),
            Repr::Finite { neg, mant, exp } => {
                if n == 0 {
                    let x = if mant == 0 { f64::NAN } else { f64::INFINITY };
                    return LongDouble(Repr::Special(if neg { -x } else { x }));
                }
                if mant == 0 || n == 1 {
                    return self;
                }
                let num = u128::from(mant) << 63;
                let q = num / n as u128;
                let rem = num % n as u128;
                let r = (q << 1) | u128::from(rem != 0);
                let (m, e) = round_bits(r, exp - 64, 64);
                LongDouble(Repr::Finite {
                    neg,
                    mant: m as u64,
                    exp: e,
                })
            }
        }
    }

    /// `self / other` rounded to 64 bits: the significands' quotient with
    /// a sticky bit for the remainder.
    pub fn div(self, other: LongDouble) -> LongDouble {
        match (self.0, other.0) {
            (
                Repr::Finite {
                    neg: na,
                    mant: ma,
                    exp: ea,
                },
                Repr::Finite {
                    neg: nb,
                    mant: mb,
                    exp: eb,
                },
            ) if mb != 0 => {
                if ma == 0 {
                    return LongDouble(Repr::Finite {
                        neg: na != nb,
                        mant: 0,
                        exp: 0,
                    });
                }
                let num = u128::from(ma) << 64;
                let d = u128::from(mb);
                let (q, rem) = (num / d, num % d);
                // Two more quotient bits (a guard bit even when q has only
                // 64), then the rest as a sticky bit.
                let (q2, rem2) = ((rem << 2) / d, (rem << 2) % d);
                let r = (((q << 2) | q2) << 1) | u128::from(rem2 != 0);
                let (m, e) = round_bits(r, ea - eb - 67, 64);
                LongDouble(Repr::Finite {
                    neg: na != nb,
                    mant: m as u64,
                    exp: e,
                })
            }
            _ => LongDouble(Repr::Special(self.to_f64() / other.to_f64())),
        }
    }

    /// `sqrtl`: the square root rounded to 64 bits, from the integer
    /// square root of the significand and three more digits, the rest
    /// a sticky bit.
    pub fn sqrt(self) -> LongDouble {
        match self.0 {
            Repr::Special(x) => LongDouble(Repr::Special(x.sqrt())),
            Repr::Finite { mant: 0, .. } => self,
            Repr::Finite { neg: true, .. } => LongDouble(Repr::Special(f64::NAN)),
            Repr::Finite { mant, exp, .. } => {
                // mant·2^exp = n·2^e with e even and n of 126 or 127 bits.
                let shift = if (exp - 63) % 2 == 0 { 63 } else { 62 };
                let n = u128::from(mant) << shift;
                let mut e = (exp - shift) / 2;
                let mut r = n.isqrt();
                let mut rem = n - r * r;
                for _ in 0..3 {
                    // One more binary digit of sqrt(4n): 2r + 1 when it fits.
                    let next = 4 * r + 1;
                    rem *= 4;
                    r *= 2;
                    if rem >= next {
                        rem -= next;
                        r += 1;
                    }
                    e -= 1;
                }
                let (m, e) = round_bits((r << 1) | u128::from(rem != 0), e - 1, 64);
                LongDouble(Repr::Finite {
                    neg: false,
                    mant: m as u64,
                    exp: e,
                })
            }
        }
    }

    /// `logl` from the double nearest and the rest: ln(hi) + lo/hi.
    pub fn ln(self) -> LongDouble {
        let hi = self.to_f64();
        let lo = self.sub(LongDouble::from_f64(hi)).to_f64();
        if !hi.is_finite() || hi <= 0.0 {
            return LongDouble::from_f64(hi.ln());
        }
        LongDouble::from_f64(hi.ln()).add(LongDouble::from_f64(lo / hi))
    }

    /// `log1pl` from the double nearest and the rest.
    pub fn ln_1p(self) -> LongDouble {
        let hi = self.to_f64();
        let lo = self.sub(LongDouble::from_f64(hi)).to_f64();
        if !hi.is_finite() || hi <= -1.0 {
            return LongDouble::from_f64(hi.ln_1p());
        }
        LongDouble::from_f64(hi.ln_1p()).add(LongDouble::from_f64(lo / (1.0 + hi)))
    }

    /// `expl` from the double nearest and the rest: e^hi (1 + lo).
    pub fn exp(self) -> LongDouble {
        let hi = self.to_f64();
        let e = hi.exp();
        if !e.is_finite() || e == 0.0 {
            return LongDouble::from_f64(e);
        }
        let lo = self.sub(LongDouble::from_f64(hi)).to_f64();
        LongDouble::from_f64(e).add(LongDouble::from_f64(e * lo))
    }

    /// Rounds to the nearest double, as a C cast `(double) s` does.
    pub fn to_f64(self) -> f64 {
        match self.0 {
            Repr::Special(x) => x,
            Repr::Finite { neg, mant, exp } => {
                let sign = if neg { -1.0 } else { 1.0 };
                if mant == 0 {
                    return sign * 0.0;
                }
                // Exponent of the lowest kept bit: 53 bits, or fewer when
                // the result is subnormal.
                let msb = exp + 63;
                let low = (msb - 52).max(-1074);
                let shift = low - exp;
                if shift > 65 {
                    return sign * 0.0;
                }
                let (m, e) = round_at(u128::from(mant), exp, shift as u32);
                if e + 64 > 1100 {
                    return sign * f64::INFINITY;
                }
                sign * scale2(m as f64, e)
            }
        }
    }

    pub fn is_finite_f64(self) -> bool {
        self.to_f64().is_finite()
    }
}

/// x87 rules for two special operands: of two NaNs the one with the larger
/// significand wins (so R's NA beats a plain NaN).
fn special_add(x: f64, y: f64) -> f64 {
    if x.is_nan() && y.is_nan() {
        let sig = |v: f64| v.to_bits() & ((1u64 << 52) - 1);
        return if sig(y) > sig(x) { y + 0.0 } else { x + 0.0 };
    }
    x + y
}

/// `m * 2^e` for an exactly representable result.
fn scale2(m: f64, e: i64) -> f64 {
    let pow = |k: i64| f64::from_bits(((k + 1023) as u64) << 52);
    if e >= -1022 {
        let mut x = m;
        let mut e = e;
        while e > 1023 {
            x *= pow(1023);
            e -= 1023;
        }
        x * pow(e)
    } else {
        (m * pow(e + 600)) * pow(-600)
    }
}

/// Rounds `r * 2^e` to `bits` significant bits (nearest, ties to even; the
/// lowest bit of `r` may be a sticky bit). Returns the significand, normalised
/// to exactly `bits` bits, and its exponent.
fn round_bits(r: u128, e: i64, bits: u32) -> (u128, i64) {
    let p = 127 - r.leading_zeros();
    if p < bits {
        let s = bits - 1 - p;
        return (r << s, e - i64::from(s));
    }
    let (m, e2) = round_at(r, e, p + 1 - bits);
    if m >> bits != 0 {
        (m >> 1, e2 + 1)
    } else {
        (m, e2)
    }
}

/// Drops the lowest `shift` bits of `r * 2^e` with rounding to nearest even.
fn round_at(r: u128, e: i64, shift: u32) -> (u128, i64) {
    if shift == 0 {
        return (r, e);
    }
    if shift >= 128 {
        return (0, e + i64::from(shift));
    }
    let keep = r >> shift;
    let rem = r & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    let up = rem > half || (rem == half && keep & 1 == 1);
    (keep + u128::from(up), e + i64::from(shift))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ld(x: f64) -> LongDouble {
        LongDouble::from_f64(x)
    }

    #[test]
    fn round_trips_doubles() {
        for x in [
            1.0,
            -0.1,
            1e300,
            5e-324,
            2.2250738585072014e-308,
            123456.789,
        ] {
            assert_eq!(ld(x).to_f64().to_bits(), x.to_bits(), "{x}");
        }
    }

    #[test]
    fn keeps_64_bits_and_no_more() {
        // 2^63 + 1 is exact in extended precision, 2^64 + 1 is not.
        let a = ld(2f64.powi(63)).add(ld(1.0)).sub(ld(2f64.powi(63)));
        assert_eq!(a.to_f64(), 1.0);
        let b = ld(2f64.powi(64)).add(ld(1.0)).sub(ld(2f64.powi(64)));
        assert_eq!(b.to_f64(), 0.0);
        // A tie rounds to even: 2^64 + 2 + 1 -> 2^64 + 4.
        let c = ld(2f64.powi(64))
            .add(ld(2.0))
            .add(ld(1.0))
            .sub(ld(2f64.powi(64)));
        assert_eq!(c.to_f64(), 4.0);
    }

    #[test]
    fn mean_of_point_one_two_three_is_above_point_two() {
        let s = ld(0.1).add(ld(0.2)).add(ld(0.3)).div_count(3);
        assert_eq!(s.to_f64(), 0.2);
    }

    #[test]
    fn products_keep_64_bits() {
        // (1 + 2^-40)^2 = 1 + 2^-39 + 2^-80: the last term is below 64 bits.
        let x = ld(1.0 + 2f64.powi(-40));
        let sq = x.mul(x).sub(ld(1.0));
        assert_eq!(sq.to_f64(), 2f64.powi(-39));
        assert_eq!(ld(-3.0).mul(ld(0.5)).to_f64(), -1.5);
    }

    #[test]
    fn division_rounds_correctly() {
        assert_eq!(ld(1.0).div_count(3).to_f64(), 1.0 / 3.0);
        assert_eq!(ld(10.0).div_count(4).to_f64(), 2.5);
        assert_eq!(ld(-7.0).div_count(7).to_f64(), -1.0);
    }
}
