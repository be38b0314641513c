#[fg=#6F7680]□#[default] #[fg=#6F7680]Terminated#[default]
