//! The order R sorts and compares text in: ICU's root collation, which R
//! 4.2 uses in a UTF-8 locale. Punctuation comes before digits before
//! letters, punctuation in ICU's order (`_ - , ; : ! ? . ' " ( ) [ ] { }
//! @ * / \ & # % ` ^ + < = > | ~ $`), and case and accents count only
//! where the letters are equal. Every function that orders text must
//! agree: sort, order, rank, xtfrm, `<`, max, min, range, is.unsorted,
//! factor levels, table, split, tapply, aggregate and merge. The workflow
//! tests/fixtures/workflows/collation.toml runs, and every step must equal
//! R's (tests/fixtures/r/collation.R wrote collation.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn collation_workflow_matches_r() {
    r_json::assert_matches_r("collation");
}
