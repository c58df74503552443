//! The syntax tree. (stub: being implemented)
use std::ops::Range;
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub span: Range<usize>,
}
