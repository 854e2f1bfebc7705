//! `nls(..., algorithm = "plinear")`: Golub-Pereyra's partially linear
//! least squares, as R 4.2 fits it. The right-hand side is a matrix (or
//! vector) whose columns the linear parameters `.lin` multiply; only the
//! nonlinear parameters are iterated on, by `nls_iter`, the linear ones
//! being each step's least-squares coefficients. This follows
//! `nlsModel.plinear` (stats/R/nls.R) in its shape: `convCrit`, the
//! increment `qr.solve(QR.B, cc)`, `setPars` and `Rmat` are R's, the
//! gradient R's `numericDeriv` (stats/src/nls.c, `numeric_deriv`).

use nalgebra::DMatrix;

use super::super::linalg::linpack::{dqrdc2, dqrsl, Job, Qr};
use super::super::summary::sum;
use super::super::value::NA;
use super::super::{Ctx, KernelError};
use super::nls::{numeric_deriv, GaussNewton};

/// The right-hand side at given nonlinear parameters: its values,
/// column-major, and its number of columns (`NCOL(rhs)`).
pub(crate) type Rhs<'a> =
    Box<dyn FnMut(&[f64], &mut Ctx) -> Result<(Vec<f64>, usize), KernelError> + 'a>;

/// R's `qr.coef(qr, y)`: NA beyond the rank, in pivoted order.
pub(crate) fn qr_coef(qr: &Qr, y: &[f64]) -> Result<Vec<f64>, KernelError> {
    if y.len() != qr.n {
        return Err(KernelError::new(
            "'qr' and 'y' must have the same number of rows",
        ));
    }
    let k = qr.rank;
    let out = dqrsl(
        qr,
        k,
        y,
        Job {
            b: true,
            ..Job::default()
        },
    );
    if out.info != 0 {
        return Err(KernelError::new("exact singularity in 'qr.coef'"));
    }
    let mut coef = vec![NA; qr.p];
    for (i, b) in out.b.iter().take(k).enumerate() {
        coef[qr.pivot[i] - 1] = *b;
    }
    Ok(coef)
}

fn apply(qr: &Qr, y: &[f64], job: Job) -> Result<Vec<f64>, KernelError> {
    if y.len() != qr.n {
        return Err(KernelError::new(
            "'qr' and 'y' must have the same number of rows",
        ));
    }
    let out = dqrsl(qr, qr.rank, y, job);
    Ok(if job.qty {
        out.qty
    } else if job.qy {
        out.qy
    } else {
        out.rsd
    })
}

/// R's `qr.qty`.
pub(crate) fn qr_qty(qr: &Qr, y: &[f64]) -> Result<Vec<f64>, KernelError> {
    apply(
        qr,
        y,
        Job {
            qty: true,
            ..Job::default()
        },
    )
}

/// R's `qr.qy`.
fn qr_qy(qr: &Qr, y: &[f64]) -> Result<Vec<f64>, KernelError> {
    apply(
        qr,
        y,
        Job {
            qy: true,
            ..Job::default()
        },
    )
}

/// R's `qr.resid`.
fn qr_resid(qr: &Qr, y: &[f64]) -> Result<Vec<f64>, KernelError> {
    apply(
        qr,
        y,
        Job {
            rsd: true,
            ..Job::default()
        },
    )
}

fn sum_squares(x: &[f64]) -> f64 {
    let sq: Vec<f64> = x.iter().map(|x| x * x).collect();
    sum(&sq, false)
}

/// The upper triangle of a QR, `qr.R`: min(n, p) x p.
pub(crate) fn qr_r(qr: &Qr) -> DMatrix<f64> {
    let (n, p) = (qr.n, qr.p);
    DMatrix::from_fn(
        n.min(p),
        p,
        |i, j| if i <= j { qr.qr[j * n + i] } else { 0.0 },
    )
}

/// `nlsModel.plinear`'s state.
pub(crate) struct Plinear<'a> {
    rhs_fn: Rhs<'a>,
    lhs: Vec<f64>,
    /// `sqrt(wts)`, one per case (R's scalar 1 without weights: the same
    /// products).
    swts: Vec<f64>,
    pub pars: Vec<f64>,
    /// Columns of the right-hand side (`p1`, the linear parameters).
    pub p1: usize,
    /// Whether the right-hand side is a matrix (`getPred`'s `%*%`).
    pub is_matrix: bool,
    n: usize,
    rhs: Vec<f64>,
    /// `attr(rhs, "gradient")`: n x p1 x p2, column-major.
    grad: Vec<f64>,
    qr_rhs: Qr,
    pub lin: Vec<f64>,
    pub resid: Vec<f64>,
    pub dev: f64,
    cc: Vec<f64>,
    qr_b: Option<Qr>,
    fac: f64,
    scale_offset: f64,
    central: bool,
}

impl<'a> Plinear<'a> {
    /// `nlsModel.plinear(form, data, start, wts)`, ending as R's does with
    /// `m$conv()`.
    pub fn new(
        mut rhs_fn: Rhs<'a>,
        lhs: Vec<f64>,
        wts: Option<&[f64]>,
        pars: Vec<f64>,
        (central, scale_offset): (bool, f64),
        ctx: &mut Ctx,
    ) -> Result<Plinear<'a>, KernelError> {
        let (first, p1) = rhs_fn(&pars, ctx)?;
        let is_matrix = p1 > 1 || first.len() != lhs.len();
        let n = lhs.len();
        let p = (p1 + pars.len()) as f64;
        let fac = (n as f64 - p) / p;
        let swts = match wts {
            Some(w) if !w.is_empty() => w.iter().map(|w| w.sqrt()).collect(),
            _ => vec![1.0; n],
        };
        if swts.len() != n {
            return Err(KernelError::new(
                "the weights and the response differ in length",
            ));
        }
        let scale_offset = if scale_offset != 0.0 {
            (n as f64 - p1 as f64) * scale_offset * scale_offset
        } else {
            0.0
        };
        let mut m = Plinear {
            rhs_fn,
            lhs,
            swts,
            pars: pars.clone(),
            p1,
            is_matrix,
            n,
            rhs: Vec::new(),
            grad: Vec::new(),
            qr_rhs: dqrdc2(Vec::new(), 0, 0, 1e-7),
            lin: Vec::new(),
            resid: Vec::new(),
            dev: 0.0,
            cc: Vec::new(),
            qr_b: None,
            fac,
            scale_offset,
            central,
        };
        m.derive(&pars, ctx)?;
        m.decompose()?;
        m.lin = qr_coef(&m.qr_rhs, &m.weighted_lhs())?;
        m.conv_crit()?;
        Ok(m)
    }

    fn weighted_lhs(&self) -> Vec<f64> {
        self.lhs
            .iter()
            .zip(&self.swts)
            .map(|(l, w)| w * l)
            .collect()
    }

    /// `rhs <<- getRHS()`: the values and `numericDeriv`'s gradient.
    fn derive(&mut self, pars: &[f64], ctx: &mut Ctx) -> Result<(), KernelError> {
        let mut cols = self.p1;
        let rhs_fn = &mut self.rhs_fn;
        let (rhs, grad) = numeric_deriv(
            &mut |p: &[f64], ctx: &mut Ctx| {
                let (v, c) = rhs_fn(p, ctx)?;
                cols = c;
                Ok(v)
            },
            pars,
            self.central,
            ctx,
        )?;
        if cols != self.p1 || rhs.len() != self.n * self.p1 {
            return Err(KernelError::new(
                "'qr' and 'y' must have the same number of rows",
            ));
        }
        self.rhs = rhs;
        self.grad = grad;
        Ok(())
    }

    /// `QR.rhs <<- qr(.swts * rhs)` and `resid`, `dev` with it.
    fn decompose(&mut self) -> Result<(), KernelError> {
        let (n, p1) = (self.n, self.p1);
        let weighted: Vec<f64> = (0..n * p1)
            .map(|k| self.swts[k % n] * self.rhs[k])
            .collect();
        self.qr_rhs = dqrdc2(weighted, n, p1, 1e-7);
        self.resid = qr_resid(&self.qr_rhs, &self.weighted_lhs())?;
        self.dev = sum_squares(&self.resid);
        Ok(())
    }

    /// `ddot(attr(rhs, "gradient"), lin)`: n x p2, each column the
    /// gradient's slice by that parameter times `lin`.
    pub fn ddot(&self) -> Vec<f64> {
        let (n, p1, p2) = (self.n, self.p1, self.pars.len());
        let mut out = vec![0.0; n * p2];
        for j in 0..p2 {
            for i in 0..n {
                let mut acc = 0.0;
                for k in 0..p1 {
                    acc += self.lin[k] * self.grad[j * n * p1 + k * n + i];
                }
                out[j * n + i] = acc;
            }
        }
        out
    }

    /// `convCrit()`: Golub and Pereyra's relative offset, with the
    /// increment's pieces `cc` and `QR.B` kept for `incr`.
    fn conv_crit(&mut self) -> Result<f64, KernelError> {
        let (n, p1, p2) = (self.n, self.p1, self.pars.len());
        let qty = qr_qty(&self.qr_rhs, &self.weighted_lhs())?;
        let mut cc = vec![0.0; p1];
        cc.extend(qty.iter().skip(p1));
        cc.truncate(n);
        let rr = qr_qy(&self.qr_rhs, &cc)?;
        let d = self.ddot();
        let mut b = Vec::with_capacity(n * p2);
        for j in 0..p2 {
            let col: Vec<f64> = (0..n).map(|i| self.swts[i] * d[j * n + i]).collect();
            b.extend(qr_qty(&self.qr_rhs, &col)?);
        }
        // dtdot(.swts * gradient, rr) into the first p1 rows.
        for j in 0..p2 {
            for k in 0..p1.min(n) {
                let slice = &self.grad[j * n * p1 + k * n..j * n * p1 + (k + 1) * n];
                let mut acc = 0.0;
                for ((r, w), g) in rr.iter().zip(&self.swts).zip(slice) {
                    acc += r * (w * g);
                }
                b[j * n + k] = acc;
            }
        }
        // forwardsolve(t(qr.R(QR.rhs)[1:p1, ]), B[1:p1, ]), as dtrsm.
        let r = qr_r(&self.qr_rhs);
        if r.nrows() < p1 {
            return Err(KernelError::new("subscript out of bounds"));
        }
        for j in 0..p2 {
            let col = &mut b[j * n..j * n + p1];
            if p1 == 1 {
                col[0] /= r[(0, 0)];
                continue;
            }
            for k in 0..p1 {
                if col[k] != 0.0 {
                    col[k] /= r[(k, k)];
                    for i in k + 1..p1 {
                        col[i] -= col[k] * r[(k, i)];
                    }
                }
            }
        }
        let qr_b = dqrdc2(b, n, p2, 1e-7);
        let rr = qr_qty(&qr_b, &cc)?;
        let head: Vec<f64> = rr.iter().take(p1).map(|x| x * x).collect();
        let tail: Vec<f64> = rr.iter().skip(p1).map(|x| x * x).collect();
        self.cc = cc;
        self.qr_b = Some(qr_b);
        Ok((self.fac * sum(&head, false) / (self.scale_offset + sum(&tail, false))).sqrt())
    }

    /// `getPred(rhs)`: `rhs %*% lin`, or `rhs * lin` of a vector.
    pub fn fitted(&self) -> Vec<f64> {
        let (n, p1) = (self.n, self.p1);
        (0..n)
            .map(|i| {
                if !self.is_matrix {
                    return self.rhs[i] * self.lin[0];
                }
                let mut acc = 0.0;
                for k in 0..p1 {
                    acc += self.lin[k] * self.rhs[k * n + i];
                }
                acc
            })
            .collect()
    }

    /// `Rmat()`: `qr.R(qr(.swts * cbind(ddot(gradient, lin), rhs)))`.
    pub fn rmat(&self) -> DMatrix<f64> {
        let n = self.n;
        let mut x = self.ddot();
        x.extend_from_slice(&self.rhs);
        let cols = x.len() / n.max(1);
        for (k, v) in x.iter_mut().enumerate() {
            *v *= self.swts[k % n];
        }
        qr_r(&dqrdc2(x, n, cols, 1e-7))
    }

    pub fn lhs(&self) -> &[f64] {
        &self.lhs
    }
}

impl GaussNewton for Plinear<'_> {
    fn pars(&self) -> Vec<f64> {
        self.pars.clone()
    }

    fn deviance(&self) -> f64 {
        self.dev
    }

    fn conv(&mut self) -> Result<f64, KernelError> {
        self.conv_crit()
    }

    /// `qr.solve(QR.B, cc)`.
    fn incr(&mut self) -> Result<Vec<f64>, KernelError> {
        let Some(qr) = &self.qr_b else {
            return Err(KernelError::new("singular matrix 'a' in solve"));
        };
        if qr.rank != qr.n.min(qr.p) {
            return Err(KernelError::new("singular matrix 'a' in solve"));
        }
        qr_coef(qr, &self.cc)
    }

    /// `m$setPars(newPars)`: true when the right-hand side's columns are
    /// rank deficient there.
    fn set_pars(&mut self, new: Vec<f64>, ctx: &mut Ctx) -> Result<bool, KernelError> {
        self.derive(&new, ctx)?;
        self.pars = new;
        self.decompose()?;
        if self.qr_rhs.rank < self.p1 {
            return Ok(true);
        }
        self.lin = qr_coef(&self.qr_rhs, &self.weighted_lhs())?;
        Ok(false)
    }
}
