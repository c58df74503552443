//! What a condition can talk about: the item types of a multiset, their attributes, and the
//! named parameters a condition may use.

/// The attribute declarations and item types a condition ranges over. Built by the content
/// loader from a pack's card sets; the rules never build one from literals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Universe {
    pub attrs: Vec<Attr>,
    pub types: Vec<ItemType>,
    /// The attribute `sum(filter)` adds up, when the pack declares one.
    pub value_attr: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attr {
    pub name: String,
    pub domain: Domain,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Domain {
    /// A closed list of names, e.g. `color` ∈ {red, green, blue, yellow}.
    Symbols(Vec<String>),
    /// Whole numbers in `min..=max`.
    Int { min: i64, max: i64 },
}

/// One kind of interchangeable item (a card type with its copies, a seat's plate).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemType {
    pub id: String,
    /// Indexed like [`Universe::attrs`]; `None` where the type lacks the attribute.
    pub values: Vec<Option<Value>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// Index into the attribute's [`Domain::Symbols`] list.
    Sym(u16),
    Int(i64),
}

/// The most item types one universe may hold: filters compile to 64-bit masks.
pub const MAX_TYPES: usize = 64;

impl Universe {
    pub fn attr_index(&self, name: &str) -> Option<usize> {
        self.attrs.iter().position(|a| a.name == name)
    }
    pub fn type_index(&self, id: &str) -> Option<usize> {
        self.types.iter().position(|t| t.id == id)
    }
    pub fn value(&self, ty: usize, attr: usize) -> Option<Value> {
        self.types[ty].values.get(attr).copied().flatten()
    }
    /// The integer an attribute contributes to sums (`None` for symbols or a missing value).
    pub fn int(&self, ty: usize, attr: usize) -> Option<i64> {
        match self.value(ty, attr) {
            Some(Value::Int(v)) => Some(v),
            _ => None,
        }
    }
}

/// The named parameters (`$power`) a condition may use. A parameter is either a constant
/// from the pack (folded in at compile time) or an argument the rules pass when evaluating,
/// in the order the arguments are declared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params {
    pub decls: Vec<ParamDecl>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamDecl {
    pub name: String,
    pub ty: crate::cond::Type,
    /// `Some` for a pack constant (booleans as 0/1), `None` for a runtime argument.
    pub constant: Option<i64>,
}

impl Params {
    pub fn constant(mut self, name: &str, ty: crate::cond::Type, value: i64) -> Self {
        self.decls.push(ParamDecl {
            name: name.into(),
            ty,
            constant: Some(value),
        });
        self
    }
    pub fn argument(mut self, name: &str, ty: crate::cond::Type) -> Self {
        self.decls.push(ParamDecl {
            name: name.into(),
            ty,
            constant: None,
        });
        self
    }
    pub fn get(&self, name: &str) -> Option<&ParamDecl> {
        self.decls.iter().find(|d| d.name == name)
    }
    /// Position of a runtime argument among the arguments.
    pub fn argument_slot(&self, name: &str) -> Option<usize> {
        self.decls
            .iter()
            .filter(|d| d.constant.is_none())
            .position(|d| d.name == name)
    }
}
