//! How many lanes a check runs and in which order (`Lanes: N [any|ascending]`, `--lanes`):
//! plain data, so the rule reader needs nothing of the lane machinery.

/// Most lanes a check may use (`exec_lo` holds the mask; enumeration of orders grows as N!).
pub const MAX_LANES: u32 = 8;

/// In which order the lanes of one instruction that writes memory are applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaneOrder {
    /// Every order (AMD documents none): the default.
    Any,
    /// Lane 0 first, then 1, 2, ...
    Ascending,
}

/// How many lanes, in which order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaneMode {
    /// 1..=[`MAX_LANES`].
    pub lanes: u32,
    /// Which serialization orders of the lanes are checked.
    pub order: LaneOrder,
}

impl LaneMode {
    /// Parse `N` or `N any` / `N ascending` (the value of `Lanes:`).
    ///
    /// Errors: the byte offset in `text` of the bad word, and a message.
    pub fn parse(text: &str) -> Result<LaneMode, (usize, String)> {
        let mut words = text.split_whitespace();
        let n = words
            .next()
            .ok_or((0, "expected a lane count".to_string()))?;
        let lanes: u32 = n
            .parse()
            .map_err(|_| (0, format!("expected a lane count, found `{n}`")))?;
        if !(1..=MAX_LANES).contains(&lanes) {
            return Err((
                0,
                format!("the lane count must be 1..={MAX_LANES}, got {lanes}"),
            ));
        }
        let order = match words.next() {
            None => LaneOrder::Any,
            Some(w) => {
                let at = text.find(w).unwrap_or(0);
                let o = LaneOrder::parse(w).map_err(|m| (at, m))?;
                if let Some(extra) = words.next() {
                    return Err((
                        text.rfind(extra).unwrap_or(0),
                        format!("unexpected `{extra}` after the lane order"),
                    ));
                }
                o
            }
        };
        Ok(LaneMode { lanes, order })
    }

    /// `2 lanes, any order`.
    pub fn describe(&self) -> String {
        format!(
            "{} lane{}, {} order",
            self.lanes,
            if self.lanes == 1 { "" } else { "s" },
            self.order.name()
        )
    }
}

impl LaneOrder {
    /// `any` or `ascending`.
    pub fn parse(w: &str) -> Result<LaneOrder, String> {
        match w {
            "any" => Ok(LaneOrder::Any),
            "ascending" => Ok(LaneOrder::Ascending),
            _ => Err(format!("unknown lane order `{w}` (any or ascending)")),
        }
    }
    /// The order's name as `Lanes:` writes it: `any` or `ascending`.
    pub fn name(self) -> &'static str {
        match self {
            LaneOrder::Any => "any",
            LaneOrder::Ascending => "ascending",
        }
    }
}
