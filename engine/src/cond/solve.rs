//! (stub: being implemented)
use super::Program;
/// Why no sub-multiset of `deck` can ever meet `program`, or `None` if one can.
pub fn unsatisfiable(_program: &Program, _deck: &[u8], _args: &[i64]) -> Option<String> {
    None
}
