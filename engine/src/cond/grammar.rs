//! (stub: being implemented)
use super::{CondError, Expr};
/// Parses a condition or expression. Errors carry a span into `src`.
pub fn parse(src: &str) -> Result<Expr, CondError> {
    Ok(Expr { span: 0..src.len() })
}
