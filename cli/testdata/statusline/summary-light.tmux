#[fg=#087F75]●2#[default] #[fg=#69717D]○1#[default] #[fg=#946200]◆5#[default] #[fg=#255FC4]◐1#[default] #[fg=#237A3D]⇡1#[default]
