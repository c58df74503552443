//! A proposal: one member of a group shares items out among the group, one item at a time,
//! and the others then agree or not, in turn. It is adopted only if all agree; the first
//! "no" rejects it, and the proposer may also withdraw instead of finishing it. What happens
//! after a rejection (a contest, a default split) is the caller's business.
//!
//! Seats are `u8`; items are numbered `0..items` by the caller.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProposalMove {
    /// The proposer gives the next item to this member.
    Allot(u8),
    /// The proposer gives up proposing: rejected.
    Withdraw,
    Agree,
    Disagree,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Adopted,
    Rejected,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Proposal {
    /// The group in turn order; the first proposes.
    members: Vec<u8>,
    /// The member each allotted item goes to, in item order.
    owners: Vec<u8>,
    items: u8,
    /// While voting: the index in `members` of the next to answer.
    voter: u8,
    verdict: Option<Verdict>,
}

impl Proposal {
    /// `members[0]` proposes how `items` items are shared among `members`.
    pub fn new(members: &[u8], items: u8) -> Proposal {
        let mut p = Proposal {
            members: members.to_vec(),
            owners: Vec::with_capacity(usize::from(items)),
            items,
            voter: 1,
            verdict: None,
        };
        p.settle();
        p
    }

    pub fn members(&self) -> &[u8] {
        &self.members
    }

    pub fn proposer(&self) -> u8 {
        self.members[0]
    }

    /// Who gets each item allotted so far.
    pub fn owners(&self) -> &[u8] {
        &self.owners
    }

    /// The item the proposer allots next, while drafting.
    pub fn next_item(&self) -> Option<u8> {
        self.drafting().then_some(self.owners.len() as u8)
    }

    pub fn drafting(&self) -> bool {
        self.verdict.is_none() && self.owners.len() < usize::from(self.items)
    }

    pub fn verdict(&self) -> Option<Verdict> {
        self.verdict
    }

    pub fn to_move(&self) -> Option<u8> {
        if self.verdict.is_some() {
            None
        } else if self.drafting() {
            Some(self.proposer())
        } else {
            Some(self.members[usize::from(self.voter)])
        }
    }

    /// The legal moves now: while drafting, allot to each member in order, then withdraw;
    /// while voting, agree or disagree; each given to `push`.
    pub fn legal(&self, mut push: impl FnMut(ProposalMove)) {
        if self.verdict.is_some() {
            return;
        }
        if self.drafting() {
            for &m in &self.members {
                push(ProposalMove::Allot(m));
            }
            push(ProposalMove::Withdraw);
        } else {
            push(ProposalMove::Agree);
            push(ProposalMove::Disagree);
        }
    }

    pub fn why_not(&self, mv: &ProposalMove) -> Option<String> {
        if self.verdict.is_some() {
            return Some("the proposal is decided".into());
        }
        Some(match (mv, self.drafting()) {
            (ProposalMove::Allot(m), true) if !self.members.contains(m) => {
                "items may only go to the members of the group".into()
            }
            (ProposalMove::Allot(_) | ProposalMove::Withdraw, true) => return None,
            (ProposalMove::Agree | ProposalMove::Disagree, false) => return None,
            (_, true) => "the proposal is still being made".into(),
            (_, false) => "the proposal is made: agree or disagree".into(),
        })
    }

    pub fn apply(&mut self, mv: &ProposalMove) {
        match *mv {
            ProposalMove::Allot(m) => self.owners.push(m),
            ProposalMove::Withdraw | ProposalMove::Disagree => {
                self.verdict = Some(Verdict::Rejected)
            }
            ProposalMove::Agree => self.voter += 1,
        }
        self.settle();
    }

    /// Adopted once every other member agreed (at once in a group of one).
    fn settle(&mut self) {
        if self.verdict.is_none()
            && !self.drafting()
            && usize::from(self.voter) >= self.members.len()
        {
            self.verdict = Some(Verdict::Adopted);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal(p: &Proposal) -> Vec<ProposalMove> {
        let mut out = Vec::new();
        p.legal(|m| out.push(m));
        out
    }

    #[test]
    fn adopted_when_every_other_member_agrees() {
        let mut p = Proposal::new(&[2, 0, 1], 2);
        assert_eq!(p.to_move(), Some(2));
        assert_eq!(
            legal(&p),
            vec![
                ProposalMove::Allot(2),
                ProposalMove::Allot(0),
                ProposalMove::Allot(1),
                ProposalMove::Withdraw
            ]
        );
        p.apply(&ProposalMove::Allot(0));
        assert_eq!(p.next_item(), Some(1));
        p.apply(&ProposalMove::Allot(2));
        assert_eq!(p.to_move(), Some(0));
        p.apply(&ProposalMove::Agree);
        assert_eq!(p.to_move(), Some(1));
        p.apply(&ProposalMove::Agree);
        assert_eq!(p.verdict(), Some(Verdict::Adopted));
        assert_eq!(p.owners(), &[0, 2]);
        assert_eq!(p.to_move(), None);
    }

    #[test]
    fn one_no_or_a_withdrawal_rejects() {
        let mut p = Proposal::new(&[0, 1, 2], 1);
        let mut q = p.clone();
        p.apply(&ProposalMove::Allot(0));
        p.apply(&ProposalMove::Disagree);
        assert_eq!(p.verdict(), Some(Verdict::Rejected));
        q.apply(&ProposalMove::Withdraw);
        assert_eq!(q.verdict(), Some(Verdict::Rejected));
        assert!(q.why_not(&ProposalMove::Agree).is_some());
    }

    #[test]
    fn a_group_of_one_needs_no_vote() {
        let mut p = Proposal::new(&[3], 1);
        assert!(p.why_not(&ProposalMove::Allot(1)).is_some());
        p.apply(&ProposalMove::Allot(3));
        assert_eq!(p.verdict(), Some(Verdict::Adopted));
    }
}
