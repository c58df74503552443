//! Condition universes for unions of card sets.

use grail_engine::cond::universe::MAX_TYPES;
use grail_engine::cond::{Attr, Domain, ItemType, Universe, Value};
use grail_engine::diag::Diagnostic;

use crate::pack::{CardSet, Pack};

/// The universe of several sets together: their card types one set after another, and the
/// union of their attributes. Attributes of one name must be of one kind; name lists are
/// joined (values keep their names), ranges widened. A type lacks the attributes its own set
/// does not declare. `sum(filter)` adds the value attribute when all sets name the same one.
pub fn union(sets: &[&CardSet]) -> Result<Universe, String> {
    if let [one] = sets {
        return Ok(one.universe.clone());
    }
    let mut attrs: Vec<Attr> = Vec::new();
    for set in sets {
        for a in &set.universe.attrs {
            match attrs.iter_mut().find(|b| b.name == a.name) {
                None => attrs.push(a.clone()),
                Some(b) => match (&mut b.domain, &a.domain) {
                    (Domain::Symbols(have), Domain::Symbols(more)) => {
                        for name in more {
                            if !have.contains(name) {
                                have.push(name.clone());
                            }
                        }
                    }
                    (Domain::Int { min, max }, Domain::Int { min: lo, max: hi }) => {
                        *min = (*min).min(*lo);
                        *max = (*max).max(*hi);
                    }
                    _ => {
                        return Err(format!(
                            "attribute `{}` is a list of names in one set and a number in another",
                            a.name
                        ));
                    }
                },
            }
        }
    }
    let mut types = Vec::new();
    for set in sets {
        let u = &set.universe;
        for t in &u.types {
            let values = attrs
                .iter()
                .map(|a| {
                    let i = u.attr_index(&a.name)?;
                    let v = t.values.get(i).copied().flatten()?;
                    Some(match (v, &u.attrs[i].domain, &a.domain) {
                        (Value::Sym(k), Domain::Symbols(own), Domain::Symbols(all)) => {
                            let name = own.get(usize::from(k))?;
                            let index = all.iter().position(|n| n == name).unwrap_or(0);
                            Value::Sym(index as u16)
                        }
                        (v, _, _) => v,
                    })
                })
                .collect();
            types.push(ItemType {
                id: t.id.clone(),
                values,
            });
        }
    }
    if types.len() > MAX_TYPES {
        return Err(format!(
            "together these sets hold {} card types; conditions range over at most {MAX_TYPES}",
            types.len()
        ));
    }
    let value_names: Vec<Option<&str>> = sets
        .iter()
        .map(|s| {
            s.universe
                .value_attr
                .map(|i| s.universe.attrs[i].name.as_str())
        })
        .collect();
    let value_attr = match value_names.first() {
        Some(Some(name)) if value_names.iter().all(|n| n == &Some(*name)) => {
            attrs.iter().position(|a| a.name == *name)
        }
        _ => None,
    };
    Ok(Universe {
        attrs,
        types,
        value_attr,
    })
}

/// The card types of a product set: the combinations of one card from each factor, merged
/// where all attribute values agree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Product {
    pub universe: Universe,
    /// The type of each combination, row-major over the factors' card indices.
    pub types_of: Vec<u8>,
    /// How many combinations each type stands for.
    pub combinations: Vec<u32>,
}

/// More combinations than this are refused before they are enumerated.
pub const MAX_COMBINATIONS: usize = 1 << 16;

/// The product of `sets` (see [`Product`]). Attributes keep their declarations; two factors
/// may not declare the same name. `sum(filter)` adds the value attribute when exactly one
/// factor declares one. A type's id lists its attribute values, `10/green/yes`.
/// Errors come with their diagnostic code.
pub fn product(sets: &[&CardSet]) -> Result<Product, (&'static str, String)> {
    let mut attrs: Vec<Attr> = Vec::new();
    let mut value_attr = None;
    let mut value_owners = 0;
    for (i, set) in sets.iter().enumerate() {
        let u = &set.universe;
        if sets[..i].iter().any(|s| s.id == set.id) {
            return Err((
                "incompatible-sets",
                format!("set `{}` is listed twice", set.id),
            ));
        }
        for a in &u.attrs {
            if let Some(other) = sets[..i]
                .iter()
                .find(|s| s.universe.attr_index(&a.name).is_some())
            {
                return Err((
                    "incompatible-sets",
                    format!(
                        "sets `{}` and `{}` both declare `{}`; the sets of a product must declare different attributes",
                        other.id, set.id, a.name
                    ),
                ));
            }
        }
        if let Some(v) = u.value_attr {
            value_owners += 1;
            value_attr = Some(attrs.len() + v);
        }
        attrs.extend(u.attrs.iter().cloned());
    }
    let sizes: Vec<usize> = sets.iter().map(|s| s.cards.len()).collect();
    let total = sizes
        .iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n))
        .filter(|&n| n <= MAX_COMBINATIONS)
        .ok_or_else(|| {
            (
                "too-many-types",
                format!("these sets make more than {MAX_COMBINATIONS} combinations"),
            )
        })?;
    let mut types: Vec<ItemType> = Vec::new();
    let mut combinations: Vec<u32> = Vec::new();
    let mut types_of = Vec::with_capacity(total);
    let mut members = vec![0usize; sets.len()];
    for _ in 0..total {
        let values: Vec<Option<Value>> = sets
            .iter()
            .zip(&members)
            .flat_map(|(s, &m)| s.universe.types[m].values.iter().copied())
            .collect();
        let t = match types.iter().position(|t| t.values == values) {
            Some(t) => t,
            None => {
                if types.len() == MAX_TYPES {
                    return Err((
                        "too-many-types",
                        format!(
                            "the combinations of these sets differ in more than {MAX_TYPES} ways; conditions range over at most {MAX_TYPES} card types"
                        ),
                    ));
                }
                types.push(ItemType {
                    id: label(&attrs, &values),
                    values,
                });
                combinations.push(0);
                types.len() - 1
            }
        };
        combinations[t] += 1;
        types_of.push(t as u8);
        // Next combination, the last factor fastest.
        for i in (0..members.len()).rev() {
            members[i] += 1;
            if members[i] < sizes[i] {
                break;
            }
            members[i] = 0;
        }
    }
    Ok(Product {
        universe: Universe {
            attrs,
            types,
            value_attr: if value_owners == 1 { value_attr } else { None },
        },
        types_of,
        combinations,
    })
}

/// `10/green/yes`: a product type's values in attribute order (`-` for a missing one).
fn label(attrs: &[Attr], values: &[Option<Value>]) -> String {
    attrs
        .iter()
        .zip(values)
        .map(|(a, v)| match (v, &a.domain) {
            (Some(Value::Sym(i)), Domain::Symbols(names)) => names
                .get(usize::from(*i))
                .cloned()
                .unwrap_or_else(|| "?".into()),
            (Some(Value::Int(n)), _) => n.to_string(),
            _ => "-".into(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

impl Pack {
    /// The universe of several sets together: their card types one set after another, and
    /// the union of their attributes (see [`union`]).
    pub fn universe(&self, set_ids: &[&str]) -> Result<Universe, Diagnostic> {
        let sets = set_ids
            .iter()
            .map(|id| self.set(id))
            .collect::<Result<Vec<_>, _>>()?;
        union(&sets).map_err(|why| {
            Diagnostic::error("incompatible-sets", why).at(
                self.loc.source,
                self.loc.span.clone(),
                "in this pack",
            )
        })
    }
}
