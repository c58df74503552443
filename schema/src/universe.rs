//! Condition universes for unions of card sets.

use grail_engine::cond::universe::MAX_TYPES;
use grail_engine::cond::{Attr, Domain, ItemType, Universe, Value};

use crate::pack::CardSet;

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
