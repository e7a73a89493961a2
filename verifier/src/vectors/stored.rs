//! A vector as read back from a vector file (`gcnsmt vectors --check`): each field checked,
//! and a malformed one named by its path (`vectors[3].inputs.v1`) so that the caller can give
//! its line and column ([`super::locate`]).

use super::locate::Step;
use gcnsmt_semantics::eval::{AddrSpace, PerSpace};
use serde_json::Value;

/// A vector as read back from a file.
pub(super) struct Stored {
    pub id: String,
    pub asm: String,
    pub mnemonic: String,
    pub entry: String,
    pub settings: Vec<(String, String)>,
    pub inputs: Vec<(String, u128)>,
    pub mem: PerSpace<Vec<(u64, u8)>>,
    pub regs: Vec<(String, u32)>,
    pub mem_out: PerSpace<Vec<(u64, u8)>>,
    pub undefined: bool,
}

/// What is wrong with a file: the path of the field (or of the object missing it) and why.
pub(super) type Bad = (Vec<Step>, String);

/// A value and its path.
#[derive(Clone)]
struct At<'a> {
    v: &'a Value,
    path: Vec<Step>,
}

impl<'a> At<'a> {
    fn bad(&self, what: &str) -> Bad {
        (
            self.path.clone(),
            format!("field `{}`: {what}", super::locate::name(&self.path)),
        )
    }

    fn get(&self, key: &str) -> Result<At<'a>, Bad> {
        let mut path = self.path.clone();
        path.push(Step::Key(key.into()));
        match self.v.get(key) {
            Some(v) => Ok(At { v, path }),
            None => Err((
                self.path.clone(),
                format!("missing field `{}`", super::locate::name(&path)),
            )),
        }
    }

    fn str(&self) -> Result<&'a str, Bad> {
        self.v.as_str().ok_or_else(|| self.bad("not a string"))
    }

    fn members(&self) -> Result<Vec<(String, At<'a>)>, Bad> {
        let o = self
            .v
            .as_object()
            .ok_or_else(|| self.bad("not an object"))?;
        Ok(o.iter()
            .map(|(k, v)| {
                let mut path = self.path.clone();
                path.push(Step::Key(k.clone()));
                (k.clone(), At { v, path })
            })
            .collect())
    }

    /// A `"0x..."` hex string or a number.
    fn num(&self) -> Result<u128, Bad> {
        let n = match self.v {
            Value::String(s) => s
                .strip_prefix("0x")
                .and_then(|h| u128::from_str_radix(h, 16).ok()),
            Value::Number(n) => n.as_u64().map(u128::from),
            _ => None,
        };
        n.ok_or_else(|| self.bad("not a \"0x...\" hex string or a non-negative number"))
    }

    /// `{"lds": [[address, byte], ...], ...}`.
    fn bytes(&self) -> Result<PerSpace<Vec<(u64, u8)>>, Bad> {
        let mut out: PerSpace<Vec<(u64, u8)>> = PerSpace::default();
        for (k, pairs) in self.members()? {
            let s = AddrSpace::ALL
                .into_iter()
                .find(|s| s.key() == k)
                .ok_or_else(|| pairs.bad("not an address space"))?;
            let list = pairs.v.as_array().ok_or_else(|| pairs.bad("not a list"))?;
            for (i, p) in list.iter().enumerate() {
                let mut path = pairs.path.clone();
                path.push(Step::Index(i));
                let at = At { v: p, path };
                let pair = (
                    p.get(0).and_then(Value::as_u64),
                    p.get(1).and_then(Value::as_u64),
                );
                match pair {
                    (Some(a), Some(b)) if p.as_array().is_some_and(|v| v.len() == 2) => {
                        let b = u8::try_from(b).map_err(|_| at.bad("a byte above 255"))?;
                        out[s].push((a, b));
                    }
                    _ => return Err(at.bad("not an [address, byte] pair")),
                }
            }
        }
        Ok(out)
    }
}

/// Vector `i` of the file, `v`.
pub(super) fn stored(v: &Value, i: usize) -> Result<Stored, Bad> {
    let at = At {
        v,
        path: vec![Step::Key("vectors".into()), Step::Index(i)],
    };
    let e = at.get("expected")?;
    let settings = at
        .get("settings")?
        .members()?
        .into_iter()
        .map(|(k, x)| Ok((k, x.str()?.to_string())))
        .collect::<Result<_, Bad>>()?;
    let inputs = at
        .get("inputs")?
        .members()?
        .into_iter()
        .map(|(k, x)| Ok((k, x.num()?)))
        .collect::<Result<_, Bad>>()?;
    let regs = e
        .get("registers")?
        .members()?
        .into_iter()
        .map(|(k, x)| {
            let n = x.num()?;
            Ok((
                k,
                u32::try_from(n).map_err(|_| x.bad("wider than 32 bits"))?,
            ))
        })
        .collect::<Result<_, Bad>>()?;
    let undefined = e.get("undefined")?;
    Ok(Stored {
        id: at.get("id")?.str()?.to_string(),
        asm: at.get("asm")?.str()?.to_string(),
        mnemonic: at.get("mnemonic")?.str()?.to_string(),
        entry: at.get("entry")?.str()?.to_ascii_lowercase(),
        settings,
        inputs,
        mem: at.get("memory")?.bytes()?,
        regs,
        mem_out: e.get("memory")?.bytes()?,
        undefined: undefined
            .v
            .as_bool()
            .ok_or_else(|| undefined.bad("not true or false"))?,
    })
}

/// An input wider than its register or immediate is a malformed file (issue 33: a 33-bit
/// value for a 32-bit register was silently truncated, and the vector then differed).
pub(super) fn check_widths(s: &Stored, i: usize, widths: &[(String, u32)]) -> Result<(), Bad> {
    for (name, v) in &s.inputs {
        let Some((_, w)) = widths.iter().find(|(n, _)| n == name) else {
            continue;
        };
        if *w < 128 && v >> w != 0 {
            let path = vec![
                Step::Key("vectors".into()),
                Step::Index(i),
                Step::Key("inputs".into()),
                Step::Key(name.clone()),
            ];
            let msg = format!(
                "field `{}`: {v:#x} is wider than the input's {w} bits",
                super::locate::name(&path)
            );
            return Err((path, msg));
        }
    }
    Ok(())
}
