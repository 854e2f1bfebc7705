//! The exact p-value of an r x c table: R's `fexact.c` (Mehta and Patel's
//! network algorithm, ACM TOMS 643, as R 4.2 carries it), routine by
//! routine. The p-value is a sum of many exponentials, grouped by the
//! network's nodes and by past path lengths within `tol` of each other:
//! only the same nodes, visited in the same order out of hash tables of
//! the same size, add the same terms in the same order, so the port keeps
//! the original's workspace split (`ldkey`, `ldstp`), its hash keys and its
//! stacks. The arrays are 1-based as the C code's after its "parameter
//! adjustments": index 0 is unused.

// The loops keep the original's 1-based indexing, line for line.
#![allow(clippy::needless_range_loop)]

use crate::kernels::nmath::pgamma::pgamma;
use crate::kernels::KernelError;

/// fexact.c's `tol`: the square root of the smallest relative spacing.
const TOL: f64 = 3.45254e-7;
const IMAX: i64 = i32::MAX as i64;
/// log(2 pi), as the original writes it.
#[allow(clippy::excessive_precision)]
const LOG_2PI: f64 = 1.83787706640934548356065947281;

fn prterr(icode: i32, mes: &str) -> KernelError {
    KernelError::new(format!("FEXACT error {icode}.\n{mes}"))
}

const CH_ERR_5: &str = "The hash table key cannot be computed because the largest key\n\
is larger than the largest representable int.\n\
The algorithm cannot proceed.\n\
Reduce the workspace, consider using 'simulate.p.value=TRUE' or another algorithm.";

/// The hybrid approximation's (expect, percnt, emin); R's exact test
/// passes expect = -1, which never approximates.
pub(super) struct Hybrid {
    pub expect: f64,
    pub percnt: f64,
    pub emin: f64,
}

/// `fexact()`: the workspace split, then `f2xact`. `table` is column-major
/// `nrow` x `ncol`.
pub(super) fn fexact(
    table: &[i64],
    nrow: usize,
    ncol: usize,
    hybrid: &Hybrid,
    workspace: i64,
    mult: i64,
) -> Result<f64, KernelError> {
    let ntot: i64 = table.iter().sum();
    if ntot == 0 {
        return Err(prterr(
            3,
            "All elements of TABLE are zero.\nPRT and PRE are set to missing values.",
        ));
    }
    let (nco, nro) = if ncol > nrow {
        (ncol as i64, nrow as i64)
    } else {
        (nrow as i64, ncol as i64)
    };
    let iwkmax = 2 * (workspace / 2);
    let n2_stack = (iwkmax / 1000).max(200);
    let mut iwkpt: i64 = 0;
    // iwork(): ints take one unit, doubles two (a double's index is
    // rounded up to an even unit; the pointer moves by two units all the
    // same).
    let iwork = |iwkpt: &mut i64, number: i64, real: bool| -> Result<(), KernelError> {
        *iwkpt += if real { number << 1 } else { number };
        if *iwkpt > iwkmax {
            return Err(prterr(40, "Out of workspace."));
        }
        Ok(())
    };
    let k = nrow as i64 + ncol as i64 + 1;
    let kk = k * nco;
    iwork(&mut iwkpt, ntot + 1, true)?;
    iwork(&mut iwkpt, nco, false)?;
    iwork(&mut iwkpt, nco, false)?;
    iwork(&mut iwkpt, nco, false)?;
    iwork(&mut iwkpt, nro, false)?;
    iwork(&mut iwkpt, nro, false)?;
    iwork(
        &mut iwkpt,
        (k * 5 + (kk << 1)).max(nco * 7 + 4 * n2_stack),
        false,
    )?;
    iwork(&mut iwkpt, (nco + 1 + 2 * n2_stack).max(k), true)?;
    // 18 + 10 * mult int units per hash key (see fexact.c's NOTE).
    let numb = 18 + 10 * mult;
    let ldkey = (iwkmax - iwkpt) / numb - 1;
    if (mult as f64) * (ldkey as f64) > IMAX as f64 {
        return Err(KernelError::new(format!(
            "integer overflow would happen in 'mult * ldkey' = {}",
            (mult as f64) * (ldkey as f64)
        )));
    }
    let ldstp = mult * ldkey;
    iwork(&mut iwkpt, ldkey << 1, false)?;
    iwork(&mut iwkpt, ldkey << 1, false)?;
    iwork(&mut iwkpt, ldstp << 1, true)?;
    iwork(&mut iwkpt, ldstp * 6, false)?;
    iwork(&mut iwkpt, ldkey << 1, true)?;
    iwork(&mut iwkpt, ldkey << 1, true)?;
    iwork(&mut iwkpt, ldkey << 1, true)?;
    iwork(&mut iwkpt, ldkey << 1, false)?;
    if ldkey < 1 {
        return Err(prterr(40, "Out of workspace."));
    }
    f2xact(
        nrow as i64,
        ncol as i64,
        table,
        hybrid,
        ldkey as usize,
        ldstp as usize,
        n2_stack as usize,
    )
}

fn isort(v: &mut [i64]) {
    v.sort_unstable();
}

/// `f2xact`: the network, column (stage) by column; returns PRE.
fn f2xact(
    nrow: i64,
    ncol: i64,
    table: &[i64],
    hybrid: &Hybrid,
    ldkey: usize,
    ldstp: usize,
    n2_stack: usize,
) -> Result<f64, KernelError> {
    let tab = |i: i64, j: i64| table[(i - 1) as usize + (j - 1) as usize * nrow as usize];
    let maybe_chisq = hybrid.expect > 0.0;
    let nr_gt_nc = nrow > ncol;
    let nco = nrow.max(ncol);
    let ncu = nco as usize;
    let mut key = vec![-9999i64; 2 * ldkey + 1];
    let mut key2 = vec![-9999i64; 2 * ldkey + 1];
    let mut ipoin = vec![0i64; 2 * ldkey + 1];
    let mut stp = vec![0f64; 2 * ldstp + 1];
    let mut ifrq = vec![0i64; 6 * ldstp + 1];
    let mut lp = vec![0f64; 2 * ldkey + 1];
    let mut sp = vec![0f64; 2 * ldkey + 1];
    let mut tm = vec![0f64; 2 * ldkey + 1];
    let mut iro = vec![0i64; ncu + 2];
    let mut ico = vec![0i64; ncu + 2];
    let mut kyy = vec![0i64; ncu + 2];
    let mut idif = vec![0i64; ncu + 2];
    let mut irn = vec![0i64; ncu + 2];
    let mut f3 = F3State::default();
    let mut f5 = 0usize;

    let mut ntot = 0i64;
    for i in 1..=nrow {
        iro[i as usize] = 0;
        for j in 1..=ncol {
            iro[i as usize] += tab(i, j);
        }
        ntot += iro[i as usize];
    }
    for i in 1..=ncol {
        ico[i as usize] = 0;
        for j in 1..=nrow {
            ico[i as usize] += tab(j, i);
        }
    }
    isort(&mut iro[1..=nrow as usize]);
    isort(&mut ico[1..=ncol as usize]);
    let nro;
    if nr_gt_nc {
        nro = ncol;
        for i in 1..=ncu {
            let ii = iro[i];
            if i as i64 <= nro {
                iro[i] = ico[i];
            }
            ico[i] = ii;
        }
    } else {
        nro = nrow;
    }
    let nru = nro as usize;
    // Hash table multipliers (the original's `iro[i] + 1 <= imax / kyy[i]`).
    kyy[1] = 1;
    for i in 1..nru {
        if iro[i] < IMAX / kyy[i] {
            kyy[i + 1] = kyy[i] * (iro[i] + 1);
        } else {
            return Err(prterr(5, CH_ERR_5));
        }
    }
    if iro[nru] + 1 > IMAX / kyy[nru] {
        return Err(prterr(501, CH_ERR_5));
    }
    // Log factorials, by the original's recurrence (not lgamma): its
    // values are the ones every path length is summed from.
    let nt = ntot as usize;
    let mut fact = vec![0f64; nt + 2];
    if nt >= 2 {
        fact[2] = 2f64.ln();
    }
    let mut i = 3;
    while i <= nt {
        fact[i] = fact[i - 1] + (i as f64).ln();
        let j = i + 1;
        if j <= nt {
            fact[j] = fact[i] + fact[2] + fact[j / 2] - fact[j / 2 - 1];
        }
        i += 2;
    }
    let fact = &fact[..];
    // The observed path length: columns in their own order, their totals
    // in sorted order, as the original adds them.
    let mut obs = TOL;
    ntot = 0;
    for j in 1..=nco {
        let mut dd = 0.0;
        for i in 1..=nro {
            let v = if nr_gt_nc { tab(j, i) } else { tab(i, j) };
            dd += fact[v as usize];
            ntot += v;
        }
        obs += fact[ico[j as usize] as usize] - dd;
    }
    let dro = f9xact(&iro[1..=nru], ntot, fact);
    let mut pre = 0.0;
    let mut itop: i64 = 0;

    let mut k = nco;
    let mut last = ldkey + 1;
    let mut jkey = ldkey + 1;
    let mut jstp = ldstp + 1;
    let mut jstp2 = ldstp * 3 + 1;
    let jstp3 = (ldstp << 2) + 1;
    let jstp4 = ldstp * 5 + 1;
    let mut ikkey = 0usize;
    let mut ikstp = 0usize;
    let mut ikstp2 = ldstp << 1;
    let mut ipo = 1usize;
    ipoin[1] = 1;
    stp[1] = 0.0;
    ifrq[1] = 1;
    ifrq[ikstp2 + 1] = -1;

    'outer: loop {
        // Outer_Loop
        let kb = (nco - k + 1) as usize;
        let mut ks = 0i64;
        let mut n = ico[kb];
        let mut kd = nro + 1;
        let mut kmax = nro;
        for v in &mut idif[1..=nru] {
            *v = 0;
        }
        // The first daughter.
        loop {
            kd -= 1;
            let t = n.min(iro[kd as usize]);
            idif[kd as usize] = t;
            if idif[kmax as usize] == 0 {
                kmax -= 1;
            }
            n -= t;
            if !(n > 0 && kd != 1) {
                break;
            }
        }
        if n == 0 {
            let k1 = k - 1;
            n = ico[kb];
            ntot = ico[kb + 1..=ncu].iter().sum();
            loop {
                // L150: arc to the daughter.
                for i in 1..=nru {
                    irn[i] = iro[i] - idif[i];
                }
                let nrb = if k1 > 1 {
                    if nro == 2 {
                        if irn[1] > irn[2] {
                            irn.swap(1, 2);
                        }
                    } else {
                        isort(&mut irn[1..=nru]);
                    }
                    // The first nonzero total.
                    let mut i = 1;
                    while i <= nru && irn[i] == 0 {
                        i += 1;
                    }
                    i
                } else {
                    1
                };
                let nro2 = nru + 1 - nrb;
                let ddf = f9xact(&idif[1..=nru], n, fact);
                let drn = f9xact(&irn[nrb..nrb + nro2], ntot, fact) - dro + ddf;
                let mut kval = 0i64;
                let mut itp = 0usize;
                if k1 > 1 {
                    kval = irn[1];
                    for i in 2..=nru {
                        kval += irn[i] * kyy[i];
                    }
                    let i = (kval % ((ldkey as i64) << 1)) as usize + 1;
                    let mut found = false;
                    for t in (i..=ldkey << 1).chain(1..i) {
                        let ii = key2[t];
                        if ii == kval {
                            found = true;
                        } else if ii < 0 {
                            key2[t] = kval;
                            lp[t] = 1.0;
                            // The wrapped search leaves SP as it was.
                            if t >= i {
                                sp[t] = 1.0;
                            }
                            found = true;
                        }
                        if found {
                            itp = t;
                            break;
                        }
                    }
                    if !found {
                        return Err(KernelError::new(format!(
                            "FEXACT error 6.  LDKEY={ldkey} is too small for this problem,\n  \
                             (ii := key2[itp={}] = {}, ldstp={ldstp})\n\
                             Try increasing the size of the workspace and possibly 'mult'",
                            i,
                            key2[if i > 1 { i - 1 } else { ldkey << 1 }]
                        )));
                    }
                }
                // L240
                let mut psh = true;
                let mut ipn = ipoin[ipo + ikkey] as usize;
                let mut pastp = stp[ipn + ikstp];
                let mut ifreq = ifrq[ipn + ikstp];
                let (obs2, obs3, chisq, tmp);
                let k1u = k1 as usize;
                if k1 > 1 {
                    let mut o2 =
                        obs - fact[ico[kb + 1] as usize] - fact[ico[kb + 2] as usize] - ddf;
                    for i in 3..=k1u {
                        o2 -= fact[ico[kb + i] as usize];
                    }
                    if lp[itp] > 0.0 {
                        let dspt = obs - o2 - ddf;
                        let rows = &irn[nrb..nrb + nro2];
                        let cols = &ico[kb + 1..=kb + k1u];
                        lp[itp] = f3xact(rows, cols, ntot, fact, n2_stack, &mut f3)?;
                        if lp[itp] > 0.0 {
                            lp[itp] = 0.0;
                        }
                        sp[itp] = f4xact(rows, cols, dspt, fact);
                        if sp[itp] > 0.0 {
                            sp[itp] = 0.0;
                        }
                        tm[itp] = -9876.0;
                        // The hybrid's chi-squared approximation.
                        if maybe_chisq
                            && ((irn[nrb] * ico[kb + 1]) as f64) > (ntot as f64) * hybrid.emin
                        {
                            let mut ncell = 0i64;
                            for i in 0..nro2 {
                                for j in 1..=k1u {
                                    if ((irn[nrb + i] * ico[kb + j]) as f64)
                                        >= (ntot as f64) * hybrid.expect
                                    {
                                        ncell += 1;
                                    }
                                }
                            }
                            if ((ncell * 100) as f64) >= ((k1 * nro2 as i64) as f64) * hybrid.percnt
                            {
                                let mut t = 0.0;
                                for i in 0..nro2 {
                                    let r = irn[nrb + i] as usize;
                                    t += fact[r] - fact[r - 1];
                                }
                                t *= (k1 - 1) as f64;
                                for j in 1..=k1u {
                                    let c = ico[kb + j] as usize;
                                    t += ((nro2 as i64 - 1) as f64)
                                        * (fact[c] - fact[c.saturating_sub(1)]);
                                }
                                let df = ((nro2 as i64 - 1) * (k1 - 1)) as f64;
                                t += df * LOG_2PI;
                                t -= ((nro2 as i64 * k1 - 1) as f64)
                                    * (fact[ntot as usize] - fact[ntot as usize - 1]);
                                tm[itp] = (obs - dro) * -2.0 - t;
                            }
                        }
                    }
                    obs3 = o2 - lp[itp];
                    obs2 = o2 - sp[itp];
                    chisq = tm[itp] != -9876.0;
                    tmp = tm[itp];
                } else {
                    obs2 = obs - drn - dro;
                    obs3 = obs2;
                    chisq = false;
                    tmp = 0.0;
                }
                loop {
                    // L300: the node with a new past path length.
                    if pastp <= obs3 {
                        pre += (ifreq as f64) * (pastp + drn).exp();
                    } else if pastp < obs2 {
                        if chisq {
                            let df = ((nro2 as i64 - 1) * (k1 - 1)) as f64;
                            let pv = pgamma(
                                (tmp + (pastp + drn) * 2.0).max(0.0) / 2.0,
                                df / 2.0,
                                1.0,
                                false,
                                true,
                            );
                            pre += (ifreq as f64) * (pastp + drn + pv).exp();
                        } else {
                            f5xact(
                                pastp + ddf,
                                kval,
                                &mut key[jkey..],
                                ldkey,
                                &mut ipoin[jkey..],
                                &mut stp,
                                jstp - 1,
                                ldstp,
                                &mut ifrq,
                                [jstp - 1, jstp2 - 1, jstp3 - 1, jstp4 - 1],
                                ifreq,
                                &mut itop,
                                psh,
                                &mut f5,
                            )?;
                            psh = false;
                        }
                    }
                    // The next past path length on the chain.
                    let next = ifrq[ipn + ikstp2];
                    if next > 0 {
                        ipn = next as usize;
                        pastp = stp[ipn + ikstp];
                        ifreq = ifrq[ipn + ikstp];
                    } else {
                        break;
                    }
                }
                if !f7xact(kmax as usize, &iro, &mut idif, &mut kd, &mut ks) {
                    break;
                }
            }
        }
        // L310: a new mother from stage k.
        loop {
            if !f6xact(
                nru,
                &mut iro,
                &kyy,
                &mut key[ikkey..],
                ldkey,
                &mut last,
                &mut ipo,
            ) {
                continue 'outer;
            }
            k -= 1;
            itop = 0;
            ikkey = jkey - 1;
            ikstp = jstp - 1;
            ikstp2 = jstp2 - 1;
            jkey = ldkey + 2 - jkey;
            jstp = ldstp + 2 - jstp;
            jstp2 = (ldstp << 1) + jstp;
            for v in &mut key2[1..=ldkey << 1] {
                *v = -9999;
            }
            if k < 2 {
                return Ok(pre);
            }
        }
    }
}

/// f3xact's `static int nst, nitc`, kept between calls as the original's.
#[derive(Default)]
struct F3State {
    nst: usize,
    nitc: usize,
}

/// `f3xact` ("LONGP"): the longest path length of the table with these
/// (sorted) margins.
fn f3xact(
    irow0: &[i64],
    icol0: &[i64],
    ntot: i64,
    fact: &[f64],
    ldst: usize,
    st: &mut F3State,
) -> Result<f64, KernelError> {
    let nrow = irow0.len();
    let ncol = icol0.len();
    let irow = |i: usize| irow0[i - 1];
    let icol = |i: usize| icol0[i - 1];
    let f = |v: i64| fact[v as usize];
    if nrow <= 1 {
        let mut lp = 0.0;
        if nrow > 0 {
            for i in 1..=ncol {
                lp -= f(icol(i));
            }
        }
        return Ok(lp);
    }
    if ncol <= 1 {
        let mut lp = 0.0;
        if ncol > 0 {
            for i in 1..=nrow {
                lp -= f(irow(i));
            }
        }
        return Ok(lp);
    }
    if nrow * ncol == 4 {
        let n11 = (irow(1) + 1) * (icol(1) + 1) / (ntot + 2);
        let n12 = irow(1) - n11;
        return Ok(-(f(n11) + f(n12) + f(icol(1) - n11) + f(icol(2) - n12)));
    }
    let mut val = 0.0;
    let mut xmin = if irow(nrow) <= irow(1) + ncol as i64 {
        f10act(irow0, icol0, &mut val, fact)
    } else {
        false
    };
    if !xmin && icol(ncol) <= icol(1) + nrow as i64 {
        xmin = f10act(icol0, irow0, &mut val, fact);
    }
    if xmin {
        return Ok(-val);
    }
    let w = nrow.max(ncol) + 2;
    let mut ico = vec![0i64; w];
    let mut iro = vec![0i64; w];
    let mut it = vec![0i64; w];
    let mut lb = vec![0i64; w];
    let mut nr = vec![0i64; w];
    let mut nt = vec![0i64; w];
    let mut nu = vec![0i64; w];
    let mut alen = vec![0f64; w];
    let mut itc = vec![0usize; 2 * ldst + 1];
    let mut ist = vec![-1i64; 2 * ldst + 1];
    let mut stv = vec![0f64; 2 * ldst + 1];

    let mut nn = ntot;
    let (mut nro, nco);
    if nrow >= ncol {
        nro = nrow;
        nco = ncol;
        ico[1] = icol(1);
        nt[1] = nn - ico[1];
        for i in 2..=ncol {
            ico[i] = icol(i);
            nt[i] = nt[i - 1] - ico[i];
        }
        for i in 1..=nrow {
            iro[i] = irow(i);
        }
    } else {
        nro = ncol;
        nco = nrow;
        ico[1] = irow(1);
        nt[1] = nn - ico[1];
        for i in 2..=nrow {
            ico[i] = irow(i);
            nt[i] = nt[i - 1] - ico[i];
        }
        for i in 1..=ncol {
            iro[i] = icol(i);
        }
    }
    let nc1s = nco as i64 - 1;
    let kyy = ico[nco] + 1;
    let mut irl = 1usize;
    let mut ks = 0usize;
    let mut k = ldst;
    let mut lev = 1usize;
    let mut nr1 = 0i64;
    let mut vmn = 1e100;

    enum L {
        NewNode,
        LoopNode,
        Pop,
    }
    let mut at = L::NewNode;
    loop {
        match at {
            L::NewNode => {
                lev = 1;
                nr1 = nro as i64 - 1;
                let nrt = iro[irl];
                let nct = ico[1];
                lb[1] = (((nrt as f64 + 1.0) * ((nct + 1) as f64)) / ((nn + nr1 * nc1s + 1) as f64)
                    - TOL) as i64
                    - 1;
                nu[1] = (((nrt as f64 + nc1s as f64) * ((nct + nr1) as f64))
                    / ((nn + nr1 + nc1s) as f64)) as i64
                    - lb[1]
                    + 1;
                nr[1] = nrt - lb[1];
                at = L::LoopNode;
            }
            L::LoopNode => {
                nu[lev] -= 1;
                if nu[lev] == 0 {
                    if lev == 1 {
                        at = L::Pop;
                        continue;
                    }
                    lev -= 1;
                    continue;
                }
                lb[lev] += 1;
                nr[lev] -= 1;
                loop {
                    alen[lev] = alen[lev - 1] + f(lb[lev]);
                    if lev as i64 >= nc1s {
                        break;
                    }
                    let nn1 = nt[lev];
                    let nrt = nr[lev];
                    lev += 1;
                    let nc1 = (nco - lev) as i64;
                    let nct = ico[lev];
                    lb[lev] = (((nrt as f64 + 1.0) * ((nct + 1) as f64))
                        / ((nn1 + nr1 * nc1 + 1) as f64)
                        - TOL) as i64;
                    nu[lev] = (((nrt as f64 + nc1 as f64) * ((nct + nr1) as f64))
                        / ((nn1 + nr1 + nc1) as f64)
                        - lb[lev] as f64
                        + 1.0) as i64;
                    nr[lev] = nrt - lb[lev];
                }
                alen[nco] = alen[lev] + f(nr[lev]);
                lb[nco] = nr[lev];
                let mut v = val + alen[nco];
                if nro == 2 {
                    v += f(ico[1] - lb[1]) + f(ico[2] - lb[2]);
                    for i in 3..=nco {
                        v += f(ico[i] - lb[i]);
                    }
                    if vmn > v {
                        vmn = v;
                    }
                } else if nro == 3 && nco == 2 {
                    let nn1 = nn - iro[irl] + 2;
                    let ic1 = ico[1] - lb[1];
                    let ic2 = ico[2] - lb[2];
                    let n11 = (iro[irl + 1] + 1) * (ic1 + 1) / nn1;
                    let n12 = iro[irl + 1] - n11;
                    v += f(n11) + f(n12) + f(ic1 - n11) + f(ic2 - n12);
                    if vmn > v {
                        vmn = v;
                    }
                } else {
                    // The column margins are a new node.
                    for i in 1..=nco {
                        it[i] = (ico[i] - lb[i]).max(0);
                    }
                    if nco == 2 {
                        if it[1] > it[2] {
                            it.swap(1, 2);
                        }
                    } else {
                        isort(&mut it[1..=nco]);
                    }
                    let dky = kyy as f64;
                    let mut dkey = it[1] as f64 * dky + it[2] as f64;
                    for i in 3..=nco {
                        dkey = it[i] as f64 + dkey * dky;
                    }
                    if dkey > IMAX as f64 {
                        return Err(KernelError::new(format!(
                            "FEXACT[f3xact()] error: hash key {dkey:.0e} > INT_MAX, kyy={kyy}, \
                             it[i (= nco = {nco})]= {}.\nRather set 'simulate.p.value=TRUE'\n",
                            it[nco]
                        )));
                    }
                    let key = dkey as i64;
                    let ipn = (key % ldst as i64) as usize + 1;
                    let mut placed = false;
                    for itp in (ipn..=ldst).chain(1..ipn) {
                        let ii = ks + itp;
                        if ist[ii] < 0 {
                            // Push onto the stack.
                            ist[ii] = key;
                            stv[ii] = v;
                            st.nst += 1;
                            itc[st.nst + ks] = itp;
                            placed = true;
                            break;
                        } else if ist[ii] == key {
                            // These margins are on the stack already.
                            stv[ii] = if v < stv[ii] { v } else { stv[ii] };
                            placed = true;
                            break;
                        }
                    }
                    if !placed {
                        return Err(KernelError::new(format!(
                            "FEXACT error 30.  Stack length exceeded in f3xact,\n  \
                             (ldst={ldst}, key={key}, ipn={ipn}).\n\
                             Increase workspace or consider using 'simulate.p.value=TRUE'"
                        )));
                    }
                }
            }
            L::Pop => {
                if st.nitc > 0 {
                    let itp = itc[st.nitc + k] + k;
                    st.nitc -= 1;
                    val = stv[itp];
                    let mut key = ist[itp];
                    ist[itp] = -1;
                    for i in (2..=nco).rev() {
                        ico[i] = key % kyy;
                        key /= kyy;
                    }
                    ico[1] = key;
                    nt[1] = nn - ico[1];
                    for i in 2..=nco {
                        nt[i] = nt[i - 1] - ico[i];
                    }
                    // Test for optimality (L90): the original compares
                    // iro[nro], not the last of the rows left.
                    let mut xmin = if iro[nro] <= iro[irl] + nco as i64 {
                        f10act(&iro[irl..irl + nro], &ico[1..=nco], &mut val, fact)
                    } else {
                        false
                    };
                    if !xmin && ico[nco] <= ico[1] + nro as i64 {
                        xmin = f10act(&ico[1..=nco], &iro[irl..irl + nro], &mut val, fact);
                    }
                    if xmin {
                        if vmn > val {
                            vmn = val;
                        }
                    } else {
                        at = L::NewNode;
                    }
                } else if nro > 2 && st.nst > 0 {
                    // The next level.
                    st.nitc = st.nst;
                    st.nst = 0;
                    k = ks;
                    ks = ldst - ks;
                    nn -= iro[irl];
                    irl += 1;
                    nro -= 1;
                } else {
                    return Ok(-vmn);
                }
            }
        }
    }
}

/// `f4xact` ("SHORTP"): the shortest path length, less `dspt`.
fn f4xact(irow: &[i64], icol: &[i64], dspt: f64, fact: &[f64]) -> f64 {
    let nrow = irow.len();
    let ncol = icol.len();
    let f = |v: i64| fact[v as usize];
    if nrow == 1 {
        let mut sp = 0.0;
        for &c in icol {
            sp -= f(c);
        }
        return sp;
    }
    if ncol == 1 {
        let mut sp = 0.0;
        for &r in irow {
            sp -= f(r);
        }
        return sp;
    }
    if nrow * ncol == 4 {
        // The original reads the second row and column totals here.
        return if irow[1] <= icol[1] {
            -(f(irow[1]) + f(icol[1]) + f(icol[1] - irow[1]))
        } else {
            -(f(icol[1]) + f(irow[1]) + f(irow[1] - icol[1]))
        };
    }
    let depth = nrow + ncol + 3;
    // irstk[i + istk * nrow], icstk[j + istk * ncol] as the original
    // indexes them after its adjustments.
    let mut irstk = vec![0i64; nrow * (depth + 1) + 1];
    let mut icstk = vec![0i64; ncol * (depth + 1) + 1];
    let mut nrstk = vec![0usize; depth];
    let mut ncstk = vec![0usize; depth];
    let mut lstk = vec![0usize; depth];
    let mut mstk = vec![0usize; depth];
    let mut nstk = vec![0u8; depth];
    let mut ystk = vec![0f64; depth];
    for i in 1..=nrow {
        irstk[i + nrow] = irow[nrow - i];
    }
    for j in 1..=ncol {
        icstk[j + ncol] = icol[ncol - j];
    }
    let mut nro = nrow;
    let mut nco = ncol;
    nrstk[1] = nro;
    ncstk[1] = nco;
    ystk[1] = 0.0;
    let mut y = 0.0;
    let mut istk = 1usize;
    let mut l = 1usize;
    let mut amx = 0.0;
    let mut sp = dspt;
    let (mut m, mut n) = (0usize, 0u8);
    let mut top = true;
    loop {
        if top {
            let ir1 = irstk[istk * nrow + 1];
            let ic1 = icstk[istk * ncol + 1];
            (m, n) = if ir1 > ic1 {
                if nro >= nco {
                    (nco - 1, 2)
                } else {
                    (nro, 1)
                }
            } else if ir1 < ic1 {
                if nro <= nco {
                    (nro - 1, 1)
                } else {
                    (nco, 2)
                }
            } else if nro <= nco {
                (nro - 1, 1)
            } else {
                (nco - 1, 2)
            };
        }
        // L60
        let (i, j) = if n == 1 { (l, 1) } else { (1, l) };
        let irt = irstk[i + istk * nrow];
        let ict = icstk[j + istk * ncol];
        y += f(irt.min(ict));
        let (rs, rd) = (istk * nrow + 1, (istk + 1) * nrow + 1);
        let (cs, cd) = (istk * ncol + 1, (istk + 1) * ncol + 1);
        if irt == ict {
            nro -= 1;
            nco -= 1;
            f11act(&mut irstk, rs, i, nro, rd);
            f11act(&mut icstk, cs, j, nco, cd);
        } else if irt > ict {
            nco -= 1;
            f11act(&mut icstk, cs, j, nco, cd);
            f8xact(&mut irstk, rs, irt - ict, i, nro, rd);
        } else {
            nro -= 1;
            f11act(&mut irstk, rs, i, nro, rd);
            f8xact(&mut icstk, cs, ict - irt, j, nco, cd);
        }
        let done = if nro == 1 {
            for k in 1..=nco {
                y += f(icstk[k + (istk + 1) * ncol]);
            }
            true
        } else if nco == 1 {
            for k in 1..=nro {
                y += f(irstk[k + (istk + 1) * nrow]);
            }
            true
        } else {
            false
        };
        if !done {
            lstk[istk] = l;
            mstk[istk] = m;
            nstk[istk] = n;
            istk += 1;
            nrstk[istk] = nro;
            ncstk[istk] = nco;
            ystk[istk] = y;
            l = 1;
            top = true;
            continue;
        }
        // L90
        if y > amx {
            amx = y;
            if sp - amx <= TOL {
                return -dspt;
            }
        }
        // L100: back up the stack to the next branch.
        'back: loop {
            istk -= 1;
            if istk == 0 {
                sp -= amx;
                return if sp - amx <= TOL { -dspt } else { sp - dspt };
            }
            l = lstk[istk] + 1;
            while l <= mstk[istk] {
                n = nstk[istk];
                nro = nrstk[istk];
                nco = ncstk[istk];
                y = ystk[istk];
                let smaller = if n == 1 {
                    irstk[l + istk * nrow] < irstk[l - 1 + istk * nrow]
                } else {
                    icstk[l + istk * ncol] < icstk[l - 1 + istk * ncol]
                };
                if smaller {
                    break 'back;
                }
                l += 1;
            }
        }
        // goto L60, m as it was.
        top = false;
    }
}

/// `f5xact` ("PUT"): a node's past path length onto the next stage's
/// tables; `st` is the original's static `itp`, the key's slot found when
/// `psh`. `ofs` are the 0-based offsets in `ifrq` of the original's
/// IFRQ, NPOIN, NR and NL (IFRQ's also STP's in `stp`).
#[allow(clippy::too_many_arguments)]
fn f5xact(
    pastp: f64,
    kval: i64,
    key: &mut [i64],
    ldkey: usize,
    ipoin: &mut [i64],
    stp: &mut [f64],
    sofs: usize,
    ldstp: usize,
    ifrq: &mut [i64],
    ofs: [usize; 4],
    ifreq: i64,
    itop: &mut i64,
    psh: bool,
    st: &mut usize,
) -> Result<(), KernelError> {
    let [fo, npo, nro, nlo] = ofs;
    if psh {
        let ird = (kval % ldkey as i64) as usize;
        let mut slot = None;
        for itp in (ird..ldkey).chain(0..ird) {
            if key[itp] == kval {
                slot = Some((itp, true));
                break;
            }
            if key[itp] < 0 {
                slot = Some((itp, false));
                break;
            }
        }
        let Some((itp, present)) = slot else {
            return Err(KernelError::new(format!(
                "FEXACT error 6 (f5xact).  LDKEY={ldkey} is too small for this problem: kval={kval}.\n\
                 Try increasing the size of the workspace."
            )));
        };
        *st = itp;
        if !present {
            // L30: a new key.
            key[itp] = kval;
            *itop += 1;
            ipoin[itp] = *itop;
            if *itop > ldstp as i64 {
                return Err(KernelError::new(format!(
                    "FEXACT error 7(update key). LDSTP={ldstp} is too small for this problem,\n  \
                     (kval={kval}, itop-ldstp={}).\n\
                     Increase workspace or consider using 'simulate.p.value=TRUE'.",
                    *itop - ldstp as i64
                )));
            }
            let t = *itop as usize;
            ifrq[npo + t] = -1;
            ifrq[nro + t] = -1;
            ifrq[nlo + t] = -1;
            stp[sofs + t] = pastp;
            ifrq[fo + t] = ifreq;
            return Ok(());
        }
    }
    // L40: this past path length's place in the key's tree, if any.
    let itp = *st;
    let mut ipn = ipoin[itp];
    let test1 = pastp - TOL;
    let test2 = pastp + TOL;
    loop {
        let p = ipn as usize;
        if stp[sofs + p] < test1 {
            ipn = ifrq[nlo + p];
        } else if stp[sofs + p] > test2 {
            ipn = ifrq[nro + p];
        } else {
            ifrq[fo + p] += ifreq;
            return Ok(());
        }
        if ipn <= 0 {
            break;
        }
    }
    *itop += 1;
    if *itop > ldstp as i64 {
        let ipn0 = ipoin[itp];
        return Err(KernelError::new(format!(
            "FEXACT error 7(location). LDSTP={ldstp} is too small for this problem,\n  \
             (pastp={pastp}, ipn_0:=ipoin[itp={itp}]={ipn0}, stp[ipn_0]={}).\n\
             Increase workspace or consider using 'simulate.p.value=TRUE'",
            stp[sofs + ipn0 as usize]
        )));
    }
    let t = *itop;
    let mut ipn = ipoin[itp] as usize;
    let mut itmp = ipn;
    loop {
        // L60
        if stp[sofs + ipn] < test1 {
            itmp = ipn;
            let next = ifrq[nlo + ipn];
            if next > 0 {
                ipn = next as usize;
                continue;
            }
            ifrq[nlo + itmp] = t;
        } else if stp[sofs + ipn] > test2 {
            itmp = ipn;
            let next = ifrq[nro + ipn];
            if next > 0 {
                ipn = next as usize;
                continue;
            }
            ifrq[nro + itmp] = t;
        }
        break;
    }
    let tu = t as usize;
    ifrq[npo + tu] = ifrq[npo + itmp];
    ifrq[npo + itmp] = t;
    stp[sofs + tu] = pastp;
    ifrq[fo + tu] = ifreq;
    ifrq[nlo + tu] = -1;
    ifrq[nro + tu] = -1;
    Ok(())
}

/// `f6xact` ("GET"): the next node of the stage off the hash table, its
/// row totals into `iro[1..=nrow]`; false while there is one.
fn f6xact(
    nrow: usize,
    iro: &mut [i64],
    kyy: &[i64],
    key: &mut [i64],
    ldkey: usize,
    last: &mut usize,
    ipn: &mut usize,
) -> bool {
    loop {
        *last += 1;
        if *last <= ldkey {
            if key[*last] < 0 {
                continue;
            }
            let mut kval = key[*last];
            key[*last] = -9999;
            for j in (2..=nrow).rev() {
                iro[j] = kval / kyy[j];
                kval -= iro[j] * kyy[j];
            }
            iro[1] = kval;
            *ipn = *last;
            return false;
        }
        *last = 0;
        return true;
    }
}

/// `f7xact`: the next daughter's column (`idif`) for these row totals;
/// false when there is none.
fn f7xact(nrow: usize, iro: &[i64], idif: &mut [i64], k: &mut i64, ks: &mut i64) -> bool {
    let at = |v: i64| v as usize;
    if *ks == 0 {
        loop {
            *ks += 1;
            if idif[at(*ks)] != iro[at(*ks)] {
                break;
            }
        }
    }
    if idif[at(*k)] > 0 && *k > *ks {
        idif[at(*k)] -= 1;
        loop {
            *k -= 1;
            if iro[at(*k)] != 0 {
                break;
            }
        }
        let mut m = *k;
        while idif[at(m)] >= iro[at(m)] {
            m -= 1;
        }
        idif[at(m)] += 1;
        if m == *ks && idif[at(m)] == iro[at(m)] {
            *ks = *k;
        }
        return true;
    }
    loop {
        // Check for finish.
        let Some(kk) = (*k + 1..=nrow as i64).find(|&kk| idif[at(kk)] > 0) else {
            return false;
        };
        // L70: reallocate the counts.
        let mut mm = 1;
        for i in 1..=at(*k) {
            mm += idif[i];
            idif[i] = 0;
        }
        *k = kk;
        loop {
            *k -= 1;
            let m = mm.min(iro[at(*k)]);
            idif[at(*k)] = m;
            mm -= m;
            if !(mm > 0 && *k != 1) {
                break;
            }
        }
        if mm > 0 {
            if kk != nrow as i64 {
                *k = kk;
                continue;
            }
            return false;
        }
        idif[at(kk)] -= 1;
        *ks = 0;
        loop {
            *ks += 1;
            if *ks > *k {
                return true;
            }
            if idif[at(*ks)] < iro[at(*ks)] {
                return true;
            }
        }
    }
}

/// `f8xact`: the row counts of `v[src..]` with `is` put in order at `i1`
/// (1-based), into `v[dst..]`.
fn f8xact(v: &mut [i64], src: usize, is: i64, i1: usize, izero: usize, dst: usize) {
    let irow = |v: &[i64], i: usize| v[src + i - 1];
    let mut i = 1;
    while i < i1 {
        v[dst + i - 1] = irow(v, i);
        i += 1;
    }
    i = i1;
    while i < izero {
        if is >= irow(v, i + 1) {
            break;
        }
        v[dst + i - 1] = irow(v, i + 1);
        i += 1;
    }
    v[dst + i - 1] = is;
    loop {
        i += 1;
        if i > izero {
            return;
        }
        v[dst + i - 1] = irow(v, i);
    }
}

/// `f9xact`: the log of the multinomial coefficient ntot! / prod(ir!).
fn f9xact(ir: &[i64], ntot: i64, fact: &[f64]) -> f64 {
    let mut d = fact[ntot as usize];
    for &r in ir {
        d -= fact[r as usize];
    }
    d
}

/// `f10act`: the shortest path of a table whose margins allow the
/// closed form; adds it to `val` and says whether it applied.
fn f10act(irow: &[i64], icol: &[i64], val: &mut f64, fact: &[f64]) -> bool {
    let nrow = irow.len();
    let ncol = icol.len();
    let nr = nrow as i64;
    let mut nd = vec![0i64; nrow.max(2)];
    let mut ne = vec![0i64; ncol];
    let mut m = vec![0i64; ncol];
    let mut is = icol[0] / nr;
    let mut ix = icol[0] - nr * is;
    ne[0] = is;
    m[0] = ix;
    if ix != 0 {
        nd[(ix - 1) as usize] += 1;
    }
    for i in 1..ncol {
        ix = icol[i] / nr;
        ne[i] = ix;
        is += ix;
        ix = icol[i] - nr * ix;
        m[i] = ix;
        if ix != 0 {
            nd[(ix - 1) as usize] += 1;
        }
    }
    if nrow >= 3 {
        for i in (0..=nrow - 3).rev() {
            nd[i] += nd[i + 1];
        }
    }
    ix = 0;
    for i in (2..=nrow).rev() {
        ix += is + nd[nrow - i] - irow[i - 1];
        if ix < 0 {
            return false;
        }
    }
    for i in 0..ncol {
        let ix = ne[i] as usize;
        let is = m[i];
        *val += (is as f64) * fact[ix + 1] + ((nr - is) as f64) * fact[ix];
    }
    true
}

/// `f11act`: the totals of `v[src..]` without the i1-th (1-based), the
/// first `i2` of the rest into `v[dst..]`.
fn f11act(v: &mut [i64], src: usize, i1: usize, i2: usize, dst: usize) {
    for i in 0..i1 - 1 {
        v[dst + i] = v[src + i];
    }
    for i in i1..=i2 {
        v[dst + i - 1] = v[src + i];
    }
}
