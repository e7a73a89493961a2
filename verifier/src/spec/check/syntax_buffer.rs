//! The register operands of a MUBUF syntax line against LLVM 22's order: `vdata, vaddr,
//! srsrc, soffset` (llvm-mc 22: `buffer_load_dword v5, v1, s[8:11], s3 offen`, every
//! generation up to RDNA 3.5; CLRX writes `VDATA, VADDR(1:2), SRSRC(4), SOFFSET`). Only the
//! order is checked: which operands an instruction has (LDS-only and cache-control entries
//! have fewer) is left to the line.

/// The position of a MUBUF syntax operand in LLVM's order, by CLRX's and AMD's names.
fn rank(tok: &str) -> Option<usize> {
    let name = tok.split('(').next().unwrap_or(tok).trim();
    Some(match name.to_ascii_uppercase().as_str() {
        "VDATA" | "VDST" => 0,
        "VADDR" => 1,
        "SRSRC" | "SRSRC(4)" | "RSRC" => 2,
        "SOFFSET" => 3,
        _ => return None,
    })
}

const ORDER: [&str; 4] = ["VDATA", "VADDR", "SRSRC", "SOFFSET"];

/// The operand tokens of a syntax line: after the mnemonic, split at commas, the last one
/// cut at the first modifier.
fn operands(line: &str) -> Vec<String> {
    let rest = line
        .trim()
        .split_once(char::is_whitespace)
        .map_or("", |x| x.1);
    let mut toks: Vec<String> = rest.split(',').map(|t| t.trim().to_string()).collect();
    if let Some(last) = toks.last_mut() {
        *last = last.split_whitespace().next().unwrap_or("").to_string();
    }
    toks.retain(|t| !t.is_empty());
    toks
}

/// `Ok(None)`: the order is LLVM's; `Ok(Some(truth))`: it is not; `Err`: a token of no
/// MUBUF operand (unchecked).
pub(super) fn order_fault(line: &str) -> Result<Option<String>, String> {
    let toks = operands(line);
    let mut ranks = Vec::new();
    for t in &toks {
        match rank(t) {
            Some(r) => ranks.push(r),
            None => return Err(format!("`{t}` names no MUBUF operand")),
        }
    }
    if ranks.windows(2).all(|w| w[0] < w[1]) {
        return Ok(None);
    }
    let mut want = ranks.clone();
    want.sort_unstable();
    let names: Vec<&str> = want.iter().map(|r| ORDER[*r]).collect();
    Ok(Some(format!(
        "LLVM 22 orders buffer operands vdata, vaddr, srsrc, soffset, so the line should read `{}`",
        names.join(", ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clrx_lines_in_llvm_order_and_swapped() {
        let good = "BUFFER_LOAD_DWORD VDATA, VADDR(1:2), SRSRC(4), SOFFSET";
        assert_eq!(order_fault(good), Ok(None));
        assert_eq!(
            order_fault("BUFFER_STORE_LDS_DWORD SRSRC(4), SOFFSET"),
            Ok(None)
        );
        let bad = "BUFFER_LOAD_DWORD VADDR(1:2), VDATA, SRSRC(4), SOFFSET";
        assert!(order_fault(bad)
            .unwrap()
            .unwrap()
            .contains("`VDATA, VADDR, SRSRC, SOFFSET`"));
        assert!(order_fault("BUFFER_LOAD_DWORD VDATA, V2, SRSRC").is_err());
    }
}
