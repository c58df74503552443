//! (stub: being implemented)
use super::{Checked, Type, Universe};
#[derive(Clone, Debug)]
pub struct Program {
    ty: Type,
}
pub fn compile(checked: &Checked, _universe: &Universe) -> Program {
    Program { ty: checked.ty }
}
impl Program {
    pub fn ty(&self) -> Type {
        self.ty
    }
    /// Evaluates a boolean program over per-type counts with the runtime arguments.
    pub fn test(&self, _counts: &[u8], _args: &[i64]) -> bool {
        true
    }
    /// Evaluates an integer program.
    pub fn value(&self, _counts: &[u8], _args: &[i64]) -> i64 {
        0
    }
}
